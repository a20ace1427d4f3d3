import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Both stores: the same API on SQLite and on PostgreSQL.
describeEachStore('on $name', (backend) => {

  let server: TestServer;
  let emailMe: string;
  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb() });
    emailMe = (await server.request('GET', '/v2/notifications/?description=Email%20me')).body.notifications[0].id;
  });
  afterAll(() => server.close());

  let counter = 0;
  const unique = (prefix: string) => `${prefix}-${++counter}`;
  const alertBody = (overrides: Record<string, unknown> = {}) => ({
    name: unique('alert'),
    metric: 'host.cpu',
    alert_criteria: { type: 'above', above_value: 90 },
    ...overrides,
  });

  /** Posts an alert body and returns the response (status + body). */
  const create = (body: unknown) => server.request('POST', '/v2/alerts/', body);

  /** The 400 invalid_body problems of a create, by path. */
  async function problemsOf(body: unknown): Promise<string[]> {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_body');
    return response.body.error.details.map((detail: { path: string }) => detail.path);
  }

  describe('creating an alert', () => {
    it('answers 201 with the id and the url /v2/alerts/<id>', async () => {
      const response = await create(alertBody());
      expect(response.status).toBe(201);
      // No channels given: the alert goes to this account's `Email me`, which has no address, and the answer says so.
      expect(response.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        url: `/v2/alerts/${response.body.id}`,
        warnings: ['notification_channels: "Email me" has no address, so every notification of this alert will be dead-lettered; give the channel a destination or the alert another channel'],
      });
    });

    it('answers no warnings for an alert whose channel has an address', async () => {
      await server.request('POST', '/v2/notifications/', { type: 'email', description: 'ops mail', destination: 'ops@example.com' });
      const response = await create(alertBody({ name: 'addressed', notification_channels: ['ops mail'] }));
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ id: response.body.id, url: `/v2/alerts/${response.body.id}` });
    });

    it('fills the documented defaults: Email me, every 60, expression a, healthy, not muted', async () => {
      const { body } = await create(alertBody({ name: 'defaults' }));
      const read = await server.request('GET', `/v2/alerts/${body.id}/`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        id: body.id,
        name: 'defaults',
        metric: 'host.cpu',
        alert_criteria: { type: 'above', above_value: 90 },
        additional_criteria: {},
        expression: 'a',
        notification_channels: [emailMe],
        notification_type: ['every', 60],
        scheduled_mutes: [],
        currently_triggered_metrics: [],
        muted: false,
        status: 'healthy',
        info: null,
        on_query_failure: null,
        escalation: [],
        acknowledgement: null,
        flap_guard: null,
        pagerduty_severity: null,
        opsgenie_priority: null,
        settle_seconds: null,
        on_no_data: null,
        depends_on: null,
        // Nothing evaluates this test server: what it stores is nobody's judgement.
        state: 'not_evaluated',
        // Without a carbon receiver every alert is evaluated by render polling.
        evaluated_by: 'render',
      });
      // The hosted API's fields in its order, then alertform's extensions.
      expect(Object.keys(read.body)).toEqual([
        'id', 'name', 'metric', 'alert_criteria', 'additional_criteria', 'expression', 'notification_channels',
        'notification_type', 'scheduled_mutes', 'currently_triggered_metrics', 'muted', 'status', 'info',
        'on_query_failure', 'escalation', 'acknowledgement', 'flap_guard', 'pagerduty_severity', 'opsgenie_priority',
        'settle_seconds',
        'on_no_data', 'depends_on', 'state', 'evaluated_by',
      ]);
    });

    it('keeps settle_seconds (a whole number of seconds up to an hour, or null) and refuses anything else with 400', async () => {
      const made = await create(alertBody({ name: 'settled', settle_seconds: 120 }));
      expect(made.status).toBe(201);
      expect((await server.request('GET', `/v2/alerts/${made.body.id}/`)).body.settle_seconds).toBe(120);
      const cleared = await server.request('PUT', `/v2/alerts/${made.body.id}/`, { settle_seconds: null });
      expect(cleared.status, cleared.text).toBe(200);
      expect((await server.request('GET', `/v2/alerts/${made.body.id}/`)).body.settle_seconds).toBeNull();
      for (const bad of [-1, 1.5, 3601, '60s']) expect(await problemsOf(alertBody({ name: `bad-${bad}`, settle_seconds: bad }))).toEqual(['settle_seconds']);
    });

    it('answers 409 conflict for a second alert of the same name, and accepts a name differing only in case', async () => {
      await create(alertBody({ name: 'twice' }));
      const again = await create(alertBody({ name: 'twice' }));
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'conflict', details: [{ path: 'name' }] });
      expect((await create(alertBody({ name: 'TWICE' }))).status).toBe(201);
    });

    it('stores a composite expression in canonical form with lower-case letters', async () => {
      const { body } = await create(
        alertBody({
          metric: 'sumSeries(a.*)',
          additional_criteria: { B: { type: 'below', below_value: 1, metric: 'b' }, c: { type: 'missing', time_period: 5, metric: 'c' } },
          expression: 'A&&(B) || c',
        }),
      );
      const read = await server.request('GET', `/v2/alerts/${body.id}`);
      expect(read.body.expression).toBe('a && b || c');
      expect(Object.keys(read.body.additional_criteria)).toEqual(['b', 'c']);
      expect(read.body.on_query_failure).toBe('notify');
    });

    it('normalises notification_type and time_period forms', async () => {
      const stateChange = await create(alertBody({ notification_type: 'state_change', alert_criteria: { type: 'above', above_value: 1, time_period: '' } }));
      const read = await server.request('GET', `/v2/alerts/${stateChange.body.id}`);
      expect(read.body.notification_type).toEqual(['state_change']);
      expect(read.body.alert_criteria).toEqual({ type: 'above', above_value: 1 });
      for (const empty of [[], '', null]) {
        const { body } = await create(alertBody({ notification_type: empty }));
        expect((await server.request('GET', `/v2/alerts/${body.id}`)).body.notification_type).toEqual(['every', 60]);
      }
    });

    it('resolves notification_channels given by description or id, and stores ids', async () => {
      const slack = await server.request('POST', '/v2/notifications/', { type: 'slack', description: 'ops slack', destination: 'https://hooks.slack.com/services/x' });
      const { body } = await create(alertBody({ notification_channels: ['ops slack', emailMe, 'Email me'] }));
      const read = await server.request('GET', `/v2/alerts/${body.id}`);
      expect(read.body.notification_channels).toEqual([slack.body.id, emailMe]);
    });
  });

  describe('alert validation names the field at fault', () => {
    it('rejects a body without the required fields', async () => {
      expect(await problemsOf({})).toEqual(['name', 'metric', 'alert_criteria']);
    });

    it('rejects unknown fields, such as the seed typo above_vale', async () => {
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'above', above_vale: 3 } }))).toContain('alert_criteria.above_vale');
      expect(await problemsOf(alertBody({ colour: 'red' }))).toEqual(['colour']);
    });

    it('requires the values each criteria type needs', async () => {
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'above' } }))).toEqual(['alert_criteria.above_value']);
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'below' } }))).toEqual(['alert_criteria.below_value']);
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'missing' } }))).toEqual(['alert_criteria.time_period']);
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'outside_bounds', above_value: 1 } }))).toEqual([
        'alert_criteria.below_value',
      ]);
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'threshold', above_value: 1 } }))).toEqual(['alert_criteria.type']);
    });

    it('requires below_value < above_value for outside_bounds', async () => {
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'outside_bounds', above_value: 5, below_value: 5 } }))).toEqual([
        'alert_criteria.below_value',
      ]);
    });

    it('rejects a time_period that is not a positive whole number and values that are not numbers', async () => {
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'above', above_value: 1, time_period: 0 } }))).toEqual(['alert_criteria.time_period']);
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'above', above_value: 1, time_period: 1.5 } }))).toEqual(['alert_criteria.time_period']);
      expect(await problemsOf(alertBody({ alert_criteria: { type: 'above', above_value: '9' } }))).toEqual(['alert_criteria.above_value']);
    });

    it('enforces the length limits of name, metric and info', async () => {
      expect(await problemsOf(alertBody({ name: 'x'.repeat(256) }))).toEqual(['name']);
      expect(await problemsOf(alertBody({ name: '' }))).toEqual(['name']);
      expect(await problemsOf(alertBody({ metric: 'm'.repeat(4097) }))).toEqual(['metric']);
      expect(await problemsOf(alertBody({ info: 'i'.repeat(16385) }))).toEqual(['info']);
    });

    it('allows at most 3 additional criteria, keyed by single letters other than a', async () => {
      const criterion = { type: 'above', above_value: 1, metric: 'm' };
      expect(
        await problemsOf(alertBody({ additional_criteria: { b: criterion, c: criterion, d: criterion, e: criterion }, expression: 'a||b||c||d||e' })),
      ).toEqual(['additional_criteria']);
      expect(await problemsOf(alertBody({ additional_criteria: { a: criterion }, expression: 'a' }))).toContain('additional_criteria.a');
      expect(await problemsOf(alertBody({ additional_criteria: { bb: criterion }, expression: 'a' }))).toContain('additional_criteria.bb');
      expect(await problemsOf(alertBody({ additional_criteria: { b: { type: 'above', above_value: 1 } }, expression: 'a && b' }))).toEqual([
        'additional_criteria.b.metric',
      ]);
      expect(await problemsOf(alertBody({ additional_criteria: { b: criterion, B: criterion }, expression: 'a && b' }))).toEqual([
        'additional_criteria.B',
      ]);
    });

    it('checks the expression grammar and its letters', async () => {
      const criterion = { type: 'above', above_value: 1, metric: 'm' };
      expect(await problemsOf(alertBody({ additional_criteria: { b: criterion } }))).toEqual(['expression']);
      expect(await problemsOf(alertBody({ additional_criteria: { b: criterion }, expression: 'a &&' }))).toEqual(['expression']);
      expect(await problemsOf(alertBody({ additional_criteria: { b: criterion }, expression: 'a & b' }))).toEqual(['expression']);
      expect(await problemsOf(alertBody({ additional_criteria: { b: criterion }, expression: '(a && b' }))).toEqual(['expression']);
      expect(await problemsOf(alertBody({ additional_criteria: { b: criterion }, expression: 'a' }))).toEqual(['additional_criteria.b']);
      expect(await problemsOf(alertBody({ additional_criteria: { b: criterion }, expression: 'a && b && c' }))).toEqual(['expression']);
      expect(await problemsOf(alertBody({ expression: 'a || b' }))).toEqual(['expression']);
      expect((await create(alertBody({ expression: 'a' }))).status).toBe(201);
    });

    it('accepts on_query_failure only when a metric calls a graphite function', async () => {
      expect(await problemsOf(alertBody({ on_query_failure: 'ignore' }))).toEqual(['on_query_failure']);
      expect(await problemsOf(alertBody({ metric: 'sumSeries(x)', on_query_failure: 'sometimes' }))).toEqual(['on_query_failure']);
      expect((await create(alertBody({ on_query_failure: null }))).status).toBe(201);
      const viaAdditional = await create(
        alertBody({ additional_criteria: { b: { type: 'above', above_value: 1, metric: 'averageSeries(y.*)' } }, expression: 'a || b', on_query_failure: 'ignore' }),
      );
      expect(viaAdditional.status).toBe(201);
    });

    it('rejects unknown channels and schedules by position', async () => {
      expect(await problemsOf(alertBody({ notification_channels: ['Email me', 'nope'] }))).toEqual(['notification_channels.1']);
      expect(await problemsOf(alertBody({ scheduled_mutes: ['0123'] }))).toEqual(['scheduled_mutes.0']);
    });

    it('rejects bad notification_type values in one line', async () => {
      expect(await problemsOf(alertBody({ notification_type: ['every', 0] }))).toEqual(['notification_type']);
      expect(await problemsOf(alertBody({ notification_type: 'sometimes' }))).toEqual(['notification_type']);
    });
  });

  describe('updating an alert', () => {
    it('changes only the given fields and answers the whole alert with metric', async () => {
      const { body } = await create(alertBody({ name: 'to-update', info: 'runbook' }));
      const response = await server.request('PUT', `/v2/alerts/${body.id}/`, { alert_criteria: { type: 'below', below_value: 3 } });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'to-update',
        metric: 'host.cpu',
        info: 'runbook',
        alert_criteria: { type: 'below', below_value: 3 },
        scheduled_mutes: [],
        notification_channels: [emailMe],
        notification_type: ['every', 60],
      });
    });

    it('validates the merged result as a whole', async () => {
      const { body } = await create(alertBody({ alert_criteria: { type: 'outside_bounds', above_value: 10, below_value: 1 } }));
      const response = await server.request('PUT', `/v2/alerts/${body.id}`, { alert_criteria: { type: 'outside_bounds', above_value: 0, below_value: 1 } });
      expect(response.status).toBe(400);
      expect(response.body.error.details[0].path).toBe('alert_criteria.below_value');
      const bad = await server.request('PUT', `/v2/alerts/${body.id}`, { expression: 'a || b' });
      expect(bad.status).toBe(400);
    });

    it('answers 409 when renaming onto another alert, and 404 for an alert that does not exist', async () => {
      await create(alertBody({ name: 'taken' }));
      const { body } = await create(alertBody({ name: 'renamer' }));
      const clash = await server.request('PUT', `/v2/alerts/${body.id}`, { name: 'taken' });
      expect(clash.status).toBe(409);
      expect(clash.body.error.code).toBe('conflict');
      const missing = await server.request('PUT', '/v2/alerts/does-not-exist/', { name: 'x' });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
    });

    it('drops on_query_failure when the metric no longer calls a function, and defaults it when it newly does', async () => {
      const { body } = await create(alertBody({ metric: 'sumSeries(x.*)', on_query_failure: 'ignore' }));
      const plain = await server.request('PUT', `/v2/alerts/${body.id}`, { metric: 'x.y' });
      expect(plain.body.on_query_failure).toBeNull();
      const fn = await server.request('PUT', `/v2/alerts/${body.id}`, { metric: 'maxSeries(x.*)' });
      expect(fn.body.on_query_failure).toBe('notify');
    });

    it('keeps the evaluator state (status) when the criteria change', async () => {
      const { body } = await create(alertBody());
      await server.store.evaluation.saveEvaluations([{ alertId: body.id, status: 'alerting', currentlyTriggeredMetrics: ['host.cpu'], evalState: JSON.stringify({ n: 1 }), history: [], deliveries: [] }]);
      const updated = await server.request('PUT', `/v2/alerts/${body.id}`, { alert_criteria: { type: 'above', above_value: 1 } });
      expect(updated.body).toMatchObject({ status: 'alerting', currently_triggered_metrics: ['host.cpu'] });
    });
  });

  describe('deleting an alert', () => {
    it('answers 200, then the alert is gone; a second delete is 400 not_found as the seed documents', async () => {
      const { body } = await create(alertBody());
      const deleted = await server.request('DELETE', `/v2/alerts/${body.id}/`);
      expect(deleted.status).toBe(200);
      expect((await server.request('GET', `/v2/alerts/${body.id}/`)).status).toBe(404);
      const again = await server.request('DELETE', `/v2/alerts/${body.id}/`);
      expect(again.status).toBe(400);
      expect(again.body.error.code).toBe('not_found');
    });

    it('never reuses an id', async () => {
      const first = await create(alertBody({ name: 'reuse' }));
      await server.request('DELETE', `/v2/alerts/${first.body.id}`);
      const second = await create(alertBody({ name: 'reuse' }));
      expect(second.body.id).not.toBe(first.body.id);
    });
  });
});
