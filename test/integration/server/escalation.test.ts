import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphiteClient } from '../../../src/graphite/render-client.js';
import { runEvaluationCycle } from '../../../src/server/evaluator/run-cycle.js';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Escalation (issue 22): the API extension on both stores, and the steps the evaluator sends at the right minute.
describeEachStore('escalation on $name', (backend) => {
  let server: TestServer;
  let other: string;
  const channels: Record<string, string> = {};
  let counter = 0;
  const name = () => `escalating-${++counter}`;
  beforeAll(async () => {
    const keys = ['escalation-key-0123456789', 'escalation-other-0123456789'];
    server = await startTestServer({ db: await backend.createDb(), keys });
    // Destinations nobody answers: the deliveries stay in the outbox, where the test reads them.
    for (const description of ['oncall', 'lead', 'manager']) {
      const made = await server.request('POST', '/v2/notifications/', { type: 'webhook', description, destination: `https://${description}.example.invalid/hook` });
      expect(made.status).toBe(201);
      channels[description] = made.body.id;
    }
    const foreign = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'theirs', destination: 'https://theirs.example.invalid/' }, { key: keys[1] });
    other = foreign.body.id;
  });
  afterAll(() => server.close());

  const create = (body: Record<string, unknown>) =>
    server.request('POST', '/v2/alerts/', { name: name(), metric: 'esc.cpu', alert_criteria: { type: 'above', above_value: 90 }, ...body });
  const read = async (id: string) => (await server.request('GET', `/v2/alerts/${id}/`)).body;

  it('stores steps named by description or id and reads them back as ids; an alert without steps reads an empty list', async () => {
    const made = await create({
      notification_channels: ['oncall'],
      escalation: [
        { after_minutes: 15, notification_channels: ['lead'] },
        { after_minutes: 30, notification_channels: [channels.manager, 'lead', 'manager'] },
      ],
    });
    expect(made.status).toBe(201);
    expect((await read(made.body.id)).escalation).toEqual([
      { after_minutes: 15, notification_channels: [channels.lead] },
      { after_minutes: 30, notification_channels: [channels.manager, channels.lead] },
    ]);
    const plain = await create({});
    expect((await read(plain.body.id)).escalation).toEqual([]);
  });

  it('answers 400 with the step at fault for unordered steps, unknown or foreign channels, too many steps and a zero minute', async () => {
    const problems = async (escalation: unknown) => {
      const answer = await create({ escalation });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_body');
      return answer.body.error.details.map((d: { path: string; message: string }) => `${d.path}: ${d.message}`);
    };
    expect(await problems([{ after_minutes: 30, notification_channels: ['lead'] }, { after_minutes: 30, notification_channels: ['lead'] }])).toEqual([
      "escalation.1.after_minutes: steps must come strictly later one after another: 30 minutes is not after the previous step's 30 minutes",
    ]);
    expect(await problems([{ after_minutes: 5, notification_channels: ['nobody', other] }])).toEqual([
      'escalation.0.notification_channels.0: no channel with id or description "nobody"',
      `escalation.0.notification_channels.1: no channel with id or description "${other}"`,
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ after_minutes: i + 1, notification_channels: ['lead'] }));
    expect((await problems(eleven)).join('\n')).toMatch(/^escalation: .*10/);
    expect((await problems([{ after_minutes: 0, notification_channels: ['lead'] }])).join('\n')).toMatch(/^escalation\.0\.after_minutes: /);
    expect((await problems([{ after_minutes: 5, notification_channels: [] }])).join('\n')).toMatch(/^escalation\.0\.notification_channels: /);
  });

  it('keeps the steps through a PUT that does not name them, clears them with an empty list, and drops a deleted channel from them', async () => {
    const made = await create({ escalation: [{ after_minutes: 10, notification_channels: ['lead'] }] });
    const id = made.body.id as string;
    expect((await server.request('PUT', `/v2/alerts/${id}/`, { info: 'runbook' })).status).toBe(200);
    expect((await read(id)).escalation).toEqual([{ after_minutes: 10, notification_channels: [channels.lead] }]);
    expect((await server.request('PUT', `/v2/alerts/${id}/`, { escalation: [] })).body.escalation).toEqual([]);

    const doomed = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'doomed', destination: 'https://doomed.example.invalid/' });
    const both = await create({
      escalation: [
        { after_minutes: 10, notification_channels: ['doomed'] },
        { after_minutes: 20, notification_channels: ['doomed', 'lead'] },
      ],
    });
    expect((await server.request('DELETE', `/v2/notifications/${doomed.body.id}/`)).status).toBe(200);
    expect((await read(both.body.id)).escalation).toEqual([{ after_minutes: 20, notification_channels: [channels.lead] }]);
  });

  describe('evaluated with an injected clock', () => {
    it('sends each step at its minute, once, to its own channels through the outbox, and the recovery to the escalated channels too', async () => {
      let value = 95;
      /** The cycle's clock (ms): Graphite answers points of the cycle's own minute, as a real one would. */
      let clock = Date.now();
      const render = await startFakeRender((request) => ({
        series: request.targets.map((target) => makeSeries(target, [value, value], Math.floor(clock / 1000) - 30, 30)),
      }));
      try {
        const alertName = name();
        const made = await server.request('POST', '/v2/alerts/', {
          name: alertName,
          metric: 'esc.clock',
          alert_criteria: { type: 'above', above_value: 90 },
          notification_channels: ['oncall'],
          notification_type: ['state_change'],
          escalation: [
            { after_minutes: 15, notification_channels: ['lead'] },
            { after_minutes: 30, notification_channels: ['manager'] },
          ],
        });
        const id = made.body.id as string;
        const start = Math.floor(Date.now() / 60_000) * 60_000;
        const graphite = createGraphiteClient({ baseUrl: render.url });
        const sentAt: Record<number, string[]> = {};
        let seen = 0;
        for (const minute of [0, 1, 14, 15, 16, 29, 30, 31, 45]) {
          clock = start + minute * 60_000;
          await runEvaluationCycle({ store: server.store.evaluation, graphite, now: () => clock });
          const all = await server.request('GET', `/v2/deliveries/?alert_id=${id}&state=pending&state=dead&state=delivered&max=100`);
          const deliveries = all.body.deliveries as { event: string; channel: { description: string } }[];
          sentAt[minute] = deliveries.slice(seen).map((d) => `${d.event}>${d.channel.description}`);
          seen = deliveries.length;
        }
        expect(sentAt).toEqual({
          0: ['alerting>oncall'],
          1: [],
          14: [],
          15: ['escalated>lead'],
          16: [],
          29: [],
          30: ['escalated>manager'],
          31: [],
          45: [],
        });
        value = 10;
        clock = start + 46 * 60_000;
        await runEvaluationCycle({ store: server.store.evaluation, graphite, now: () => clock });
        const after = await server.request('GET', `/v2/deliveries/?alert_id=${id}&state=pending&state=dead&state=delivered&max=100`);
        expect(after.body.deliveries.slice(seen).map((d: { event: string; channel: { description: string } }) => `${d.event}>${d.channel.description}`).sort()).toEqual(
          ['recovered>lead', 'recovered>manager', 'recovered>oncall'],
        );
        // The history says which step went where, and why.
        const timeline = await server.request('GET', `/v2/alerts/${id}/timeline`);
        const escalations = (timeline.body.entries as { kind: string; channel: unknown; reason: string }[]).filter((e) => e.reason?.startsWith('escalated'));
        expect(escalations.map((e) => e.reason).sort()).toEqual(['escalated: step 1 of 2, after 15 minutes', 'escalated: step 2 of 2, after 30 minutes']);
      } finally {
        await render.close();
      }
    });
  });
});
