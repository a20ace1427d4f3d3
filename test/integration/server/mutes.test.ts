import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Both stores: the same API on SQLite and on PostgreSQL.
describeEachStore('on $name', (backend) => {

  let server: TestServer;
  let now = Date.UTC(2026, 0, 5, 12, 0, 0); // a Monday, 12:00 UTC
  beforeAll(async () => {
    server = await startTestServer({ now: () => now, db: await backend.createDb() });
  });
  afterAll(() => server.close());

  let n = 0;
  async function createAlert(overrides: Record<string, unknown> = {}): Promise<string> {
    const response = await server.request('POST', '/v2/alerts/', {
      name: `mute-${++n}`,
      metric: 'host.cpu',
      alert_criteria: { type: 'above', above_value: 1 },
      ...overrides,
    });
    expect(response.status).toBe(201);
    return response.body.id;
  }

  describe('muting one alert', () => {
    it('mutes for the duration, reports the remaining minutes, and ends by itself', async () => {
      const id = await createAlert();
      const muted = await server.request('POST', `/v2/alerts/${id}/muted/`, { duration: 30 });
      expect(muted.status).toBe(200);
      expect(muted.body).toEqual({ duration: 30 });
      now += 10 * 60_000 + 1000;
      const status = await server.request('GET', `/v2/alerts/${id}/muted/`);
      expect(status.body).toEqual({ id, name: expect.any(String), muted: true, duration: 20, scheduled_mutes: [] });
      expect((await server.request('GET', `/v2/alerts/${id}`)).body.muted).toBe(true);
      now += 20 * 60_000;
      expect((await server.request('GET', `/v2/alerts/${id}/muted/`)).body).toMatchObject({ muted: false, duration: 0 });
      expect((await server.request('GET', `/v2/alerts/${id}`)).body.muted).toBe(false);
    });

    it('unmutes, and answers 404 for a missing alert on all three operations', async () => {
      const id = await createAlert();
      await server.request('POST', `/v2/alerts/${id}/muted`, { duration: 5 });
      const unmuted = await server.request('DELETE', `/v2/alerts/${id}/muted/`);
      expect(unmuted.status).toBe(200);
      expect(unmuted.body.muted).toBe(false);
      for (const method of ['POST', 'DELETE', 'GET']) {
        const response = await server.request(method, '/v2/alerts/missing/muted/', method === 'POST' ? { duration: 5 } : undefined);
        expect([method, response.status, response.body.error.code]).toEqual([method, 404, 'not_found']);
      }
    });

    it('answers 400 for a missing, zero, fractional or too long duration', async () => {
      const id = await createAlert();
      for (const body of [{}, { duration: 0 }, { duration: 1.5 }, { duration: '5' }, { duration: 525601 }, { duration: 5, extra: 1 }]) {
        const response = await server.request('POST', `/v2/alerts/${id}/muted/`, body);
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('invalid_body');
      }
    });
  });

  describe('bulk mute and unmute', () => {
    it('mutes the union of ids and search matches', async () => {
      const a = await createAlert({ name: 'bulk-web-1' });
      const b = await createAlert({ name: 'bulk-db-1' });
      const c = await createAlert({ name: 'bulk-other', metric: 'web.latency' });
      const response = await server.request('POST', '/v2/alerts/muted/', { ids: [b], search: 'WEB', duration: 15 });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ids: [a, b, c], duration: 15 });
      const unmute = await server.request('DELETE', '/v2/alerts/muted/', { search: 'bulk-' });
      expect(unmute.status).toBe(200);
      expect(unmute.body.ids).toEqual([a, b, c]);
      expect((await server.request('GET', `/v2/alerts/${a}/muted`)).body.muted).toBe(false);
    });

    it('is all or nothing: an unknown id gives 404 and mutes nothing', async () => {
      const a = await createAlert();
      const response = await server.request('POST', '/v2/alerts/muted/', { ids: [a, 'no-such-alert'], duration: 15 });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
      expect((await server.request('GET', `/v2/alerts/${a}/muted`)).body.muted).toBe(false);
      await server.request('POST', `/v2/alerts/${a}/muted`, { duration: 15 });
      const unmute = await server.request('DELETE', '/v2/alerts/muted/', { ids: [a, 'no-such-alert'] });
      expect(unmute.status).toBe(404);
      expect((await server.request('GET', `/v2/alerts/${a}/muted`)).body.muted).toBe(true);
    });

    it('with neither ids nor search mutes and unmutes every alert of the account', async () => {
      const all = (await server.request('GET', '/v2/alerts/')).body.alerts.map((alert: { id: string }) => alert.id);
      const muted = await server.request('POST', '/v2/alerts/muted/', { ids: [], search: '', duration: 5 });
      expect(muted.body.ids).toEqual(all);
      expect((await server.request('GET', '/v2/alerts/')).body.alerts.every((alert: { muted: boolean }) => alert.muted)).toBe(true);
      const unmuted = await server.request('DELETE', '/v2/alerts/muted/');
      expect(unmuted.body.ids).toEqual(all);
      expect((await server.request('GET', '/v2/alerts/')).body.alerts.some((alert: { muted: boolean }) => alert.muted)).toBe(false);
    });

    it('answers 400 for an invalid bulk body', async () => {
      expect((await server.request('POST', '/v2/alerts/muted/', { ids: ['x'] })).status).toBe(400);
      expect((await server.request('POST', '/v2/alerts/muted/', { ids: 'x', duration: 5 })).status).toBe(400);
      expect((await server.request('DELETE', '/v2/alerts/muted/', { search: 5 })).status).toBe(400);
      expect((await server.request('DELETE', '/v2/alerts/muted/', { duration: 5 })).status).toBe(400);
    });
  });

  describe('scheduled mutes on alerts', () => {
    it('an alert is muted while one of its schedules is active, and the mute status says until when', async () => {
      now = Date.UTC(2026, 0, 5, 12, 0, 0); // Monday 12:00 UTC = 14:00 in UTC+2
      const schedule = await server.request('POST', '/v2/schedules/', {
        name: 'lunch', start_time: '13:30', duration: 60, timezone: 'UTC+2', repeat: ['mon', 'tue'],
      });
      expect(schedule.status).toBe(201);
      const id = await createAlert({ scheduled_mutes: [schedule.body.id] });
      expect((await server.request('GET', `/v2/alerts/${id}/muted/`)).body).toMatchObject({
        muted: true,
        duration: 30,
        scheduled_mutes: [schedule.body.id],
      });
      now = Date.UTC(2026, 0, 5, 12, 31, 0);
      expect((await server.request('GET', `/v2/alerts/${id}`)).body.muted).toBe(false);
      now = Date.UTC(2026, 0, 7, 11, 45, 0); // Wednesday: not a repeat day
      expect((await server.request('GET', `/v2/alerts/${id}`)).body.muted).toBe(false);
    });
  });
});
