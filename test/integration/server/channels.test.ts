import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startPagingServer } from '../../helpers/paging-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';

// Both stores: the same API on SQLite and on PostgreSQL.
describeEachStore('on $name', (backend) => {

  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb() });
  });
  afterAll(() => server.close());

  const createChannel = (body: unknown) => server.request('POST', '/v2/notifications/', body);

  describe('notification channels', () => {
    it('a new account has exactly one channel, Email me', async () => {
      const fresh = await startTestServer({ db: await backend.createDb() });
      try {
        const list = await fresh.request('GET', '/v2/notifications/');
        expect(list.status).toBe(200);
        expect(list.body).toEqual({
          notifications: [{ type: 'email', description: 'Email me', destination: '', id: expect.any(String), auto_resolve: false, throttle: null, template: null, group_by: null }],
          next_page: false,
        });
      } finally {
        await fresh.close();
      }
    });

    it('takes a GET of the unaddressed Email me channel PUT back unchanged, and still checks a destination set', async () => {
      const fresh = await startTestServer({ db: await backend.createDb() });
      try {
        const [builtIn] = (await fresh.request('GET', '/v2/notifications/')).body.notifications;
        const { id, ...body } = builtIn;
        const put = await fresh.request('PUT', `/v2/notifications/${id}`, body);
        expect(put.status, put.text).toBe(200);
        expect(put.body).toMatchObject({ id, destination: '', description: 'Email me' });
        const renamed = await fresh.request('PUT', `/v2/notifications/${id}`, { ...body, description: 'Team inbox' });
        expect(renamed.status).toBe(200);
        const bad = await fresh.request('PUT', `/v2/notifications/${id}`, { ...body, destination: 'not-an-address' });
        expect(bad.status).toBe(400);
        expect(bad.body.error.details[0].path).toBe('destination');
        const addressed = await fresh.request('PUT', `/v2/notifications/${id}`, { ...body, destination: 'ops@example.com' });
        expect(addressed.status).toBe(200);
        // Once it has an address, emptying it is refused as for any email channel.
        expect((await fresh.request('PUT', `/v2/notifications/${id}`, { ...body, destination: '' })).status).toBe(400);
      } finally {
        await fresh.close();
      }
    });

    it('creates (201 {id, url}), reads, updates and deletes a channel', async () => {
      const created = await createChannel({ type: 'pagerduty', description: 'pd', destination: 'R0UTINGKEY', auto_resolve: true });
      expect(created.status).toBe(201);
      expect(created.body.url).toBe(`/v2/notifications/${created.body.id}`);
      const read = await server.request('GET', `/v2/notifications/${created.body.id}/`);
      expect(read.body).toEqual({ type: 'pagerduty', description: 'pd', destination: 'R0UTINGKEY', id: created.body.id, auto_resolve: true, throttle: null, template: null, group_by: null });
      const updated = await server.request('PUT', `/v2/notifications/${created.body.id}/`, { destination: 'OTHERKEY' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ description: 'pd', destination: 'OTHERKEY', auto_resolve: true });
      const deleted = await server.request('DELETE', `/v2/notifications/${created.body.id}/`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: created.body.id, deleted: true, alerts_changed: 0 });
    });

    it('answers the seed statuses: invalid create 404, duplicate 409, read missing 400, update/delete missing 404', async () => {
      const invalid = await createChannel({ type: 'fax', description: 'x', destination: 'y' });
      expect(invalid.status).toBe(404);
      expect(invalid.body.error).toMatchObject({ code: 'invalid_body', details: [{ path: 'type' }] });
      await createChannel({ type: 'email', description: 'dup', destination: 'a@example.com' });
      const dup = await createChannel({ type: 'email', description: 'dup', destination: 'b@example.com' });
      expect(dup.status).toBe(409);
      expect(dup.body.error.code).toBe('conflict');
      const readMissing = await server.request('GET', '/v2/notifications/nope/');
      expect(readMissing.status).toBe(400);
      expect(readMissing.body.error.code).toBe('not_found');
      expect((await server.request('PUT', '/v2/notifications/nope/', { description: 'z' })).status).toBe(404);
      expect((await server.request('DELETE', '/v2/notifications/nope/')).status).toBe(404);
    });

    it('answers 400 for an invalid update and 409 for an update onto another description', async () => {
      const a = await createChannel({ type: 'webhook', description: 'hook-a', destination: 'https://example.com/a' });
      await createChannel({ type: 'webhook', description: 'hook-b', destination: 'https://example.com/b' });
      const invalid = await server.request('PUT', `/v2/notifications/${a.body.id}`, { destination: 'not a url' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error).toMatchObject({ code: 'invalid_body', details: [{ path: 'destination' }] });
      const clash = await server.request('PUT', `/v2/notifications/${a.body.id}`, { description: 'hook-b' });
      expect(clash.status).toBe(409);
    });

    it('checks the destination by type', async () => {
      const cases: Array<[string, string, boolean]> = [
        ['email', 'ops@example.com', true],
        ['email', 'ops@example.com, dev@example.org', true],
        ['email', 'not-an-address', false],
        ['slack', 'https://hooks.slack.com/services/T/B/X', true],
        ['slack', 'hooks.slack.com', false],
        ['webhook', 'http://hooks.example.com:9/hook', true],
        // A literal loopback address: refused by default (test/security/ssrf.test.ts covers the rest).
        ['webhook', 'http://127.0.0.1:9/hook', false],
        ['webhook', 'ftp://example.com/x', false],
        ['victorops', 'https://alert.victorops.com/integrations/generic/1/alert/key/route', true],
        ['victorops', 'routing-key', false],
        ['pagerduty', 'abc123', true],
        ['pagerduty', '   ', false],
        ['opsgenie', 'key-1', true],
        ['opsgenie', 'two words', false],
      ];
      let n = 0;
      for (const [type, destination, ok] of cases) {
        const response = await createChannel({ type, description: `dest-${++n}`, destination });
        expect([type, destination, response.status]).toEqual([type, destination, ok ? 201 : 404]);
        if (!ok) expect(response.body.error.details[0].path).toBe('destination');
      }
    });

    it('accepts auto_resolve true only on pagerduty and victorops, and drops it when the type changes', async () => {
      const slack = await createChannel({ type: 'slack', description: 'ar-slack', destination: 'https://x.example/h', auto_resolve: true });
      expect(slack.status).toBe(404);
      expect(slack.body.error.details[0].path).toBe('auto_resolve');
      const falseOk = await createChannel({ type: 'slack', description: 'ar-slack', destination: 'https://x.example/h', auto_resolve: false });
      expect(falseOk.status).toBe(201);
      const pd = await createChannel({ type: 'pagerduty', description: 'ar-pd', destination: 'k', auto_resolve: true });
      const toWebhook = await server.request('PUT', `/v2/notifications/${pd.body.id}`, { type: 'webhook', destination: 'https://x.example/w' });
      expect(toWebhook.status).toBe(200);
      expect(toWebhook.body.auto_resolve).toBe(false);
    });

    it('rejects unknown fields and missing ones, naming them', async () => {
      const response = await createChannel({ type: 'email', desc: 'x', destination: 'a@example.com' });
      expect(response.status).toBe(404);
      expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['desc', 'description']);
    });

    it('deleting a channel removes it from its alerts; an alert left with none gets Email me back', async () => {
      const emailMe = (await server.request('GET', '/v2/notifications/?description=Email%20me')).body.notifications[0].id;
      const hook = await createChannel({ type: 'webhook', description: 'to-delete', destination: 'https://example.com/d' });
      const keep = await createChannel({ type: 'webhook', description: 'to-keep', destination: 'https://example.com/k' });
      const only = await server.request('POST', '/v2/alerts/', { name: 'only-hook', metric: 'm', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['to-delete'] });
      const both = await server.request('POST', '/v2/alerts/', { name: 'both-hooks', metric: 'm', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['to-delete', 'to-keep'] });
      const deleted = await server.request('DELETE', `/v2/notifications/${hook.body.id}`);
      expect(deleted.body.alerts_changed).toBe(2);
      expect((await server.request('GET', `/v2/alerts/${only.body.id}`)).body.notification_channels).toEqual([emailMe]);
      expect((await server.request('GET', `/v2/alerts/${both.body.id}`)).body.notification_channels).toEqual([keep.body.id]);
    });

    it('shows the last delivery error additively once a delivery fails, and drops it once one succeeds', async () => {
      const paging = await startPagingServer({ db: await backend.createDb() });
      try {
        const hook = await paging.server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'failing', destination: `${paging.receiverUrl}/hook` });
        expect((await paging.server.request('GET', `/v2/notifications/${hook.body.id}`)).body).not.toHaveProperty('last_error');
        await paging.page('failing');
        const read = () => paging.server.request('GET', `/v2/notifications/${hook.body.id}`);
        const failed = await until(read, (r) => r.body.last_error !== undefined);
        expect(failed.body.last_error).toEqual({ time: expect.stringMatching(/^\d+$/), message: 'webhook answered HTTP 5xx' });
        paging.answer(200);
        await until(read, (r) => !('last_error' in r.body));
      } finally {
        await paging.close();
      }
    });
  });
});
