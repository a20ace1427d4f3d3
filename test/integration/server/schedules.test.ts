import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Both stores: the same API on SQLite and on PostgreSQL.
describeEachStore('on $name', (backend) => {

  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb() });
  });
  afterAll(() => server.close());

  const createSchedule = (body: unknown) => server.request('POST', '/v2/schedules/', body);

  describe('scheduled mutes', () => {
    it('creates (201 {id, url}), reads with defaults, updates and deletes', async () => {
      const created = await createSchedule({ name: 'nightly', start_time: '02:00', duration: 120 });
      expect(created.status).toBe(201);
      expect(created.body.url).toBe(`/v2/schedules/${created.body.id}`);
      const read = await server.request('GET', `/v2/schedules/${created.body.id}/`);
      expect(read.body).toEqual({ id: created.body.id, name: 'nightly', start_time: '02:00', duration: 120, timezone: 'UTC', repeat: [], alerts: [] });
      const updated = await server.request('PUT', `/v2/schedules/${created.body.id}/`, { repeat: ['sat', 'sun'], timezone: 'UTC+02:00' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ repeat: ['sat', 'sun'], timezone: 'UTC+2', start_time: '02:00' });
      expect((await server.request('DELETE', `/v2/schedules/${created.body.id}/`)).status).toBe(200);
      expect((await server.request('GET', `/v2/schedules/${created.body.id}/`)).status).toBe(404);
    });

    it('stores repeat in its canonical form, Monday first, however it was sent', async () => {
      const created = await createSchedule({ name: 'weekend-then-monday', start_time: '01:00', duration: 30, repeat: ['sun', 'mon', 'sat'] });
      expect(created.status).toBe(201);
      expect((await server.request('GET', `/v2/schedules/${created.body.id}`)).body.repeat).toEqual(['mon', 'sat', 'sun']);
      const updated = await server.request('PUT', `/v2/schedules/${created.body.id}`, { repeat: ['fri', 'tue'] });
      expect(updated.body.repeat).toEqual(['tue', 'fri']);
      expect((await server.request('GET', `/v2/schedules/?name=weekend-then-monday`)).body.scheduled_mutes[0].repeat).toEqual(['tue', 'fri']);
    });

    it('answers 409 for a duplicate name, on create and on rename', async () => {
      await createSchedule({ name: 'dup', start_time: '01:00', duration: 5 });
      expect((await createSchedule({ name: 'dup', start_time: '03:00', duration: 5 })).status).toBe(409);
      const other = await createSchedule({ name: 'other', start_time: '01:00', duration: 5 });
      const rename = await server.request('PUT', `/v2/schedules/${other.body.id}`, { name: 'dup' });
      expect(rename.status).toBe(409);
      expect(rename.body.error.code).toBe('conflict');
    });

    it('validates each field and names it', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ start_time: '01:00', duration: 5 }, 'name'],
        [{ name: 'v1', start_time: '24:00', duration: 5 }, 'start_time'],
        [{ name: 'v2', start_time: '1:00', duration: 5 }, 'start_time'],
        [{ name: 'v3', start_time: '01:00', duration: 0 }, 'duration'],
        [{ name: 'v4', start_time: '01:00', duration: 5, timezone: 'CET' }, 'timezone'],
        [{ name: 'v5', start_time: '01:00', duration: 5, timezone: 'UTC-13' }, 'timezone'],
        [{ name: 'v6', start_time: '01:00', duration: 5, repeat: ['monday'] }, 'repeat.0'],
        [{ name: 'v7', start_time: '01:00', duration: 5, repeat: ['mon', 'mon'] }, 'repeat'],
        [{ name: 'v8', start_time: '01:00', duration: 5, every: 'day' }, 'every'],
      ];
      for (const [body, path] of cases) {
        const response = await createSchedule(body);
        expect([path, response.status]).toEqual([path, 400]);
        expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
      }
      const created = await createSchedule({ name: 'valid', start_time: '01:00', duration: 5, timezone: 'UTC+14' });
      expect(created.status).toBe(201);
      expect((await server.request('PUT', `/v2/schedules/${created.body.id}`, { duration: -1 })).status).toBe(400);
      expect((await server.request('PUT', '/v2/schedules/nope', { duration: 1 })).status).toBe(404);
      expect((await server.request('DELETE', '/v2/schedules/nope')).status).toBe(404);
    });

    it('lists the alerts that reference a schedule, and deleting it removes it from them', async () => {
      const schedule = await createSchedule({ name: 'maint', start_time: '05:00', duration: 30 });
      const alert = await server.request('POST', '/v2/alerts/', {
        name: 'scheduled', metric: 'm', alert_criteria: { type: 'above', above_value: 1 }, scheduled_mutes: [schedule.body.id],
      });
      expect((await server.request('GET', `/v2/schedules/${schedule.body.id}`)).body.alerts).toEqual([alert.body.id]);
      await server.request('DELETE', `/v2/schedules/${schedule.body.id}`);
      expect((await server.request('GET', `/v2/alerts/${alert.body.id}`)).body.scheduled_mutes).toEqual([]);
    });

    it('searches by name OR id with pages', async () => {
      const a = await createSchedule({ name: 's-a', start_time: '01:00', duration: 5 });
      const b = await createSchedule({ name: 's-b', start_time: '01:00', duration: 5 });
      const found = await server.request('GET', `/v2/schedules/?name=s-a&id=${b.body.id}`);
      expect(found.status).toBe(200);
      expect(found.body.scheduled_mutes.map((s: { id: string }) => s.id)).toEqual([a.body.id, b.body.id]);
      const page = await server.request('GET', '/v2/schedules/?max=1&page=1');
      expect(page.body.scheduled_mutes).toHaveLength(1);
      // The public docs' paging: the next page's number, false on the last page.
      expect(page.body.next_page).toBe(2);
      const last = await server.request('GET', '/v2/schedules/?max=100');
      expect(last.body.next_page).toBe(false);
      expect((await server.request('GET', '/v2/schedules/?max=0')).status).toBe(400);
      expect((await server.request('GET', '/v2/schedules/?colour=red')).status).toBe(400);
    });

    it('searches by the public docs\' duration, start_time, timezone and repeat, all OR-ed', async () => {
      const x = await createSchedule({ name: 'f-x', start_time: '12:00', duration: 10, timezone: 'UTC+2', repeat: ['mon'] });
      const y = await createSchedule({ name: 'f-y', start_time: '20:00', duration: 30, timezone: 'UTC-5:30', repeat: ['sat', 'sun'] });
      const ids = async (query: string) => {
        const found = await server.request('GET', `/v2/schedules/?${query}`);
        expect(found.status, found.text).toBe(200);
        return found.body.scheduled_mutes.map((s: { id: string }) => s.id).filter((id: string) => [x.body.id, y.body.id].includes(id));
      };
      expect(await ids('duration=10&duration=30')).toEqual([x.body.id, y.body.id]);
      expect(await ids('start_time=20:00')).toEqual([y.body.id]);
      // `+` unencoded arrives as a space; encoded, and another spelling of the same offset, match too.
      expect(await ids('timezone=UTC+2')).toEqual([x.body.id]);
      expect(await ids('timezone=UTC%2B02:00')).toEqual([x.body.id]);
      expect(await ids('timezone=UTC-05:30')).toEqual([y.body.id]);
      expect(await ids('repeat=sun')).toEqual([y.body.id]);
      expect(await ids('name=f-x&repeat=sat')).toEqual([x.body.id, y.body.id]);
      for (const bad of ['duration=ten', 'start_time=25:00', 'timezone=CET', 'repeat=someday']) {
        const response = await server.request('GET', `/v2/schedules/?${bad}`);
        expect(response.status, bad).toBe(400);
        expect(response.body.error.details[0].path).toBe(bad.split('=')[0]);
      }
    });
  });
});
