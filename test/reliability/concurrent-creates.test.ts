import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'alertform-race-'));
let server: TestServer;
beforeAll(async () => {
  // A file database, as in production: WAL and fsync on every commit make the race window as wide as it gets.
  server = await startTestServer({ db: join(dir, 'race.db') });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const N = 100;

function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('100 concurrent requests for one name', () => {
  it('give exactly one 201 and 99 409s for alerts, and one alert exists', async () => {
    const body = { name: 'one-of-a-hundred', metric: 'race.m', alert_criteria: { type: 'above', above_value: 1 } };
    const responses = await Promise.all(Array.from({ length: N }, () => server.request('POST', '/v2/alerts/', body)));
    expect(countStatuses(responses.map((r) => r.status))).toEqual({ 201: 1, 409: N - 1 });
    for (const response of responses.filter((r) => r.status === 409)) expect(response.body.error.code).toBe('conflict');
    expect((await server.request('GET', '/v2/alerts/?name=one-of-a-hundred')).body.alerts).toHaveLength(1);
  });

  it('give exactly one 201 for channels and for schedules', async () => {
    const channel = { type: 'webhook', description: 'raced hook', destination: 'https://example.com/h' };
    const schedule = { name: 'raced schedule', start_time: '02:00', duration: 30, repeat: ['sun'] };
    const [channels, schedules] = await Promise.all([
      Promise.all(Array.from({ length: N }, () => server.request('POST', '/v2/notifications/', channel))),
      Promise.all(Array.from({ length: N }, () => server.request('POST', '/v2/schedules/', schedule))),
    ]);
    expect(countStatuses(channels.map((r) => r.status))).toEqual({ 201: 1, 409: N - 1 });
    expect(countStatuses(schedules.map((r) => r.status))).toEqual({ 201: 1, 409: N - 1 });
  });

  it('let exactly one of 100 alerts be renamed onto one name', async () => {
    const ids = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const created = await server.request('POST', '/v2/alerts/', {
          name: `rename-source-${i}`,
          metric: 'race.r',
          alert_criteria: { type: 'below', below_value: 0 },
        });
        expect(created.status).toBe(201);
        return created.body.id as string;
      }),
    );
    const renames = await Promise.all(ids.map((id) => server.request('PUT', `/v2/alerts/${id}/`, { name: 'rename-target' })));
    expect(countStatuses(renames.map((r) => r.status))).toEqual({ 200: 1, 409: N - 1 });
    expect((await server.request('GET', '/v2/alerts/?name=rename-target')).body.alerts).toHaveLength(1);
  });
});
