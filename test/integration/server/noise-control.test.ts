import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Noise control's API fields (alertform extensions), on both stores.
describeEachStore('on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb() });
  });
  afterAll(() => server.close());

  describe('throttle and flap_guard in the API', () => {
    it('stores a channel throttle, keeps it across a PUT that leaves it out, clears it with null, and refuses a bad one with 400', async () => {
      const created = await server.request('POST', '/v2/notifications/', {
        type: 'webhook', description: 'throttled hook', destination: 'https://hooks.example/t', throttle: { max_notifications: 5, window_minutes: 60 },
      });
      expect(created.status, created.text).toBe(201);
      const url = `/v2/notifications/${created.body.id}/`;
      expect((await server.request('GET', url)).body.throttle).toEqual({ max_notifications: 5, window_minutes: 60 });
      expect((await server.request('PUT', url, { description: 'renamed hook' })).body.throttle).toEqual({ max_notifications: 5, window_minutes: 60 });
      expect((await server.request('PUT', url, { throttle: null })).body.throttle).toBeNull();

      const bad = await server.request('POST', '/v2/notifications/', {
        type: 'webhook', description: 'bad hook', destination: 'https://hooks.example/b', throttle: { max_notifications: 0, window_minutes: 20_000 },
      });
      // The seed documents 404 for an invalid channel create body (code invalid_body), as for every other field.
      expect(bad.status, bad.text).toBe(404);
      expect(bad.body.error.code).toBe('invalid_body');
      expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['throttle.max_notifications', 'throttle.window_minutes']);
      const missing = await server.request('PUT', url, { throttle: { max_notifications: 3 } });
      expect([missing.status, missing.body.error.details]).toEqual([400, [{ path: 'throttle.window_minutes', message: expect.stringContaining('required') }]]);
    });

    it('stores an alert flap_guard, returns null without one, and refuses a bad one with 400', async () => {
      const body = { name: 'guarded', metric: 'svc.latency', alert_criteria: { type: 'above', above_value: 1 } };
      const plain = await server.request('POST', '/v2/alerts/', { ...body, name: 'unguarded' });
      expect((await server.request('GET', `/v2/alerts/${plain.body.id}/`)).body.flap_guard).toBeNull();
      const created = await server.request('POST', '/v2/alerts/', { ...body, flap_guard: { max_changes: 4, window_minutes: 30 } });
      expect(created.status, created.text).toBe(201);
      const read = await server.request('GET', `/v2/alerts/${created.body.id}/`);
      expect(read.body.flap_guard).toEqual({ max_changes: 4, window_minutes: 30 });
      // A GET sent back as it is (the read-only fields included) is accepted and changes nothing.
      const { id: _id, ...again } = read.body;
      expect((await server.request('PUT', `/v2/alerts/${created.body.id}/`, again)).body.flap_guard).toEqual({ max_changes: 4, window_minutes: 30 });
      const bad = await server.request('POST', '/v2/alerts/', { ...body, name: 'bad', flap_guard: { max_changes: 4, window_minutes: 30, extra: 1 } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details).toEqual([{ path: 'flap_guard.extra', message: expect.any(String) }]);
      const wrongType = await server.request('POST', '/v2/alerts/', { ...body, name: 'bad', flap_guard: 'often' });
      expect(wrongType.status).toBe(400);
    });

    it('lists held and summarized deliveries on request, and names them in the 400 for an unknown state', async () => {
      const held = await server.request('GET', '/v2/deliveries/?state=held&state=summarized');
      expect([held.status, held.body]).toEqual([200, { deliveries: [], next_page: false }]);
      const bad = await server.request('GET', '/v2/deliveries/?state=throttled');
      expect(bad.status).toBe(400);
      expect(bad.body.error.details[0].message).toBe('must be one of pending, dead, delivered, held, summarized');
    });
  });
});
