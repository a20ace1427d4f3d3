/**
 * Conformance of a /v2 server to the seed (../shared/seeds/000_fb3e9bed61578790.txt): the documented statuses and
 * shapes only, nothing alertform adds. Runs against ALERTFORM_CONFORMANCE_URL with ALERTFORM_CONFORMANCE_KEY when
 * both are set (any server that speaks the API; it creates resources named `conformance-<random>-...` and deletes
 * them again), and otherwise against our own server started on a free port, once per store (SQLite, PostgreSQL).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, startTestServer, type RequestOptions, type TestResponse } from '../helpers/server.js';
import { storeBackends } from '../helpers/store-backends.js';

/** Where the suite runs: a given server, or ours on each store. */
interface Target {
  name: string;
  skip: boolean;
  reason: string;
  start(): Promise<{ url: string; key: string; stop?: () => Promise<void> }>;
  dispose(): Promise<void>;
}

function targets(): Target[] {
  const url = process.env.ALERTFORM_CONFORMANCE_URL;
  const key = process.env.ALERTFORM_CONFORMANCE_KEY;
  if (url && key) return [{ name: url, skip: false, reason: '', start: async () => ({ url, key }), dispose: async () => undefined }];
  return storeBackends().map((backend) => ({
    name: `our server on ${backend.name}`,
    skip: backend.skip,
    reason: backend.reason,
    async start() {
      const server = await startTestServer({ db: await backend.createDb() });
      return { url: server.url, key: server.key, stop: server.close };
    },
    dispose: () => backend.dispose(),
  }));
}

describe.each(targets())('conformance of $name', (target) => {
  if (target.skip) {
    it.skip(`needs ${target.reason}`, () => undefined);
    return;
  }
  let baseUrl: string;
  let key: string;
  let stop: (() => Promise<void>) | undefined;
  const prefix = `conformance-${randomBytes(4).toString('hex')}`;
  const createdAlerts: string[] = [];
  const createdChannels: string[] = [];

  beforeAll(async () => {
    ({ url: baseUrl, key, stop } = await target.start());
  });

  afterAll(async () => {
    for (const id of createdAlerts) await call('DELETE', `/v2/alerts/${id}/`);
    for (const id of createdChannels) await call('DELETE', `/v2/notifications/${id}/`);
    await stop?.();
    await target.dispose();
  });

  function call<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>> {
    return sendRequest<T>(baseUrl, key, method, path, body, options);
  }

  async function createAlert(suffix: string, extra: Record<string, unknown> = {}) {
    const response = await call('POST', '/v2/alerts/', {
      name: `${prefix}-${suffix}`,
      metric: `${prefix}.${suffix}.value`,
      alert_criteria: { type: 'above', above_value: 100 },
      ...extra,
    });
    if (response.status === 201) createdAlerts.push(response.body.id);
    return response;
  }

  describe('conformance: alerts', () => {
    it('1. create answers 201 {id, url}; a duplicate name 409; an invalid body 400', async () => {
      const created = await createAlert('one');
      expect(created.status).toBe(201);
      expect(typeof created.body.id).toBe('string');
      expect(created.body.url).toMatch(new RegExp(`/v2/alerts/${created.body.id}/?$`));
      expect((await createAlert('one')).status).toBe(409);
      expect((await call('POST', '/v2/alerts/', { name: `${prefix}-bad`, metric: 'x' })).status).toBe(400);
    });

    it('2. search answers 200 {alerts, next_page}, by name and by id, with pages', async () => {
      const a = await createAlert('search-a');
      const b = await createAlert('search-b');
      const byName = await call('GET', `/v2/alerts/?name=${prefix}-search-a`);
      expect(byName.status).toBe(200);
      expect(byName.body.alerts.map((alert: { id: string }) => alert.id)).toEqual([a.body.id]);
      expect(typeof byName.body.next_page).toBe('boolean');
      const orred = await call('GET', `/v2/alerts/?name=${prefix}-search-a&id=${b.body.id}`);
      expect(orred.body.alerts.map((alert: { id: string }) => alert.id).sort()).toEqual([a.body.id, b.body.id].sort());
      const paged = await call('GET', `/v2/alerts/?search=${prefix}-search&max=1`);
      expect(paged.body.alerts).toHaveLength(1);
      expect(paged.body.next_page).toBe(true);
      expect((await call('GET', '/v2/alerts/?max=101')).status).toBe(400);
    });

    it('3. read answers 200 with the documented fields; a missing alert 404', async () => {
      const created = await createAlert('read');
      const read = await call('GET', `/v2/alerts/${created.body.id}/`);
      expect(read.status).toBe(200);
      for (const field of ['id', 'name', 'alert_criteria', 'notification_channels', 'notification_type', 'scheduled_mutes', 'currently_triggered_metrics', 'muted', 'status']) {
        expect(read.body, field).toHaveProperty(field);
      }
      expect(read.body.name).toBe(`${prefix}-read`);
      expect(read.body.notification_type).toEqual(['every', 60]);
      expect((await call('GET', `/v2/alerts/${prefix}-missing/`)).status).toBe(404);
    });

    it('4. update answers 200 with metric and the changed field; invalid 400; missing 404', async () => {
      const created = await createAlert('update');
      const updated = await call('PUT', `/v2/alerts/${created.body.id}/`, { info: 'runbook: restart it' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: `${prefix}-update`, metric: `${prefix}.update.value`, info: 'runbook: restart it' });
      expect((await call('PUT', `/v2/alerts/${created.body.id}/`, { alert_criteria: { type: 'nonsense' } })).status).toBe(400);
      expect((await call('PUT', `/v2/alerts/${prefix}-missing/`, { info: 'x' })).status).toBe(404);
    });

    it('6-8. mute answers {duration}; the status says muted; unmute answers 200; a missing alert 404', async () => {
      const created = await createAlert('mute');
      const muted = await call('POST', `/v2/alerts/${created.body.id}/muted/`, { duration: 10 });
      expect(muted.status).toBe(200);
      expect(muted.body.duration).toBe(10);
      const status = await call('GET', `/v2/alerts/${created.body.id}/muted/`);
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ id: created.body.id, muted: true });
      expect((await call('POST', `/v2/alerts/${created.body.id}/muted/`, {})).status).toBe(400);
      expect((await call('DELETE', `/v2/alerts/${created.body.id}/muted/`)).status).toBe(200);
      expect((await call('GET', `/v2/alerts/${created.body.id}/muted/`)).body.muted).toBe(false);
      expect((await call('GET', `/v2/alerts/${prefix}-missing/muted/`)).status).toBe(404);
    });

    it('9-10. bulk mute and unmute by ids answer the ids; an unknown id 404', async () => {
      const a = await createAlert('bulk-a');
      const b = await createAlert('bulk-b');
      const muted = await call('POST', '/v2/alerts/muted/', { ids: [a.body.id, b.body.id], duration: 5 });
      expect(muted.status).toBe(200);
      expect([...muted.body.ids].sort()).toEqual([a.body.id, b.body.id].sort());
      expect(muted.body.duration).toBe(5);
      const unmuted = await call('DELETE', '/v2/alerts/muted/', { ids: [a.body.id, b.body.id] });
      expect(unmuted.status).toBe(200);
      expect([...unmuted.body.ids].sort()).toEqual([a.body.id, b.body.id].sort());
      expect((await call('POST', '/v2/alerts/muted/', { ids: [`${prefix}-missing`], duration: 5 })).status).toBe(404);
      expect((await call('POST', '/v2/alerts/muted/', { ids: [a.body.id] })).status).toBe(400);
    });

    it('11. history answers 200 with an object; bad parameters 400', async () => {
      const history = await call('GET', '/v2/alerts/history/?days=1');
      expect(history.status).toBe(200);
      expect(typeof history.body).toBe('object');
      expect((await call('GET', '/v2/alerts/history/?days=abc')).status).toBe(400);
    });

    it('5. delete answers 200; deleting a missing alert answers 400', async () => {
      const created = await createAlert('delete');
      expect((await call('DELETE', `/v2/alerts/${created.body.id}/`)).status).toBe(200);
      createdAlerts.splice(createdAlerts.indexOf(created.body.id), 1);
      expect((await call('DELETE', `/v2/alerts/${created.body.id}/`)).status).toBe(400);
    });
  });

  describe('conformance: notification channels', () => {
    const channel = (suffix: string) => ({ type: 'webhook', description: `${prefix}-${suffix}`, destination: 'https://example.com/hook' });

    it('12-16. the channel lifecycle answers the documented statuses', async () => {
      const created = await call('POST', '/v2/notifications/', channel('hook'));
      expect(created.status).toBe(201);
      createdChannels.push(created.body.id);
      expect(created.body.url).toMatch(new RegExp(`/v2/notifications/${created.body.id}/?$`));
      expect((await call('POST', '/v2/notifications/', channel('hook'))).status).toBe(409);
      expect((await call('POST', '/v2/notifications/', { type: 'fax', description: `${prefix}-fax`, destination: 'x' })).status).toBe(404);

      const read = await call('GET', `/v2/notifications/${created.body.id}/`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: created.body.id, type: 'webhook', description: `${prefix}-hook`, destination: 'https://example.com/hook', auto_resolve: false });
      expect((await call('GET', `/v2/notifications/${prefix}-missing/`)).status).toBe(400);

      const search = await call('GET', `/v2/notifications/?description=${prefix}-hook`);
      expect(search.status).toBe(200);
      expect(search.body.notifications.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
      expect(typeof search.body.next_page).toBe('boolean');

      const updated = await call('PUT', `/v2/notifications/${created.body.id}/`, { destination: 'https://example.com/other' });
      expect(updated.status).toBe(200);
      expect(updated.body.destination).toBe('https://example.com/other');
      expect((await call('PUT', `/v2/notifications/${created.body.id}/`, { type: 'fax' })).status).toBe(400);
      expect((await call('PUT', `/v2/notifications/${prefix}-missing/`, { destination: 'https://example.com/x' })).status).toBe(404);

      expect((await call('DELETE', `/v2/notifications/${created.body.id}/`)).status).toBe(200);
      createdChannels.pop();
      expect((await call('DELETE', `/v2/notifications/${created.body.id}/`)).status).toBe(404);
    });

    it('an alert can name its channel by description', async () => {
      const created = await call('POST', '/v2/notifications/', channel('named'));
      createdChannels.push(created.body.id);
      const alert = await createAlert('by-channel-name', { notification_channels: [`${prefix}-named`] });
      expect(alert.status).toBe(201);
      const read = await call('GET', `/v2/alerts/${alert.body.id}/`);
      expect(read.body.notification_channels).toHaveLength(1);
    });
  });

  describe('conformance: authentication', () => {
    it('a request without a key is refused', async () => {
      const response = await call('GET', '/v2/alerts/', undefined, { key: null });
      expect([401, 403]).toContain(response.status);
    });
  });
});
