/**
 * Round trips: an object PUT back exactly as GET returned it is accepted (read-only fields such as id, status,
 * muted, currently_triggered_metrics, alerts, last_error and the pending-delivery counts are ignored when the id matches) and changes nothing;
 * a different id is a 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPagingServer } from '../../helpers/paging-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function create(path: string, body: unknown): Promise<string> {
  const created = await server.request('POST', path, body);
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

/**
 * GET, PUT the same object back, GET again: both reads must be equal and the PUT 200. `live` names fields the
 * server's own work moves between the reads (a failing channel's retries renew its last_error), compared by shape.
 */
async function expectRoundTrip(itemPath: string, on: TestServer = server, live: string[] = []) {
  const read = await on.request('GET', itemPath);
  expect(read.status).toBe(200);
  const put = await on.request('PUT', itemPath, read.body);
  expect(put.status, put.text).toBe(200);
  const again = await on.request('GET', itemPath);
  const settled = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([key]) => !live.includes(key)));
  expect(settled(again.body)).toEqual(settled(read.body));
  for (const key of live) expect(typeof again.body[key]).toBe(typeof read.body[key]);
  return read.body;
}

async function expectIdMismatch(itemPath: string, otherId: string) {
  const read = await server.request('GET', itemPath);
  const put = await server.request('PUT', itemPath, { ...read.body, id: otherId });
  expect(put.status).toBe(400);
  expect(put.body.error.code).toBe('invalid_body');
  expect(put.body.error.details).toEqual([expect.objectContaining({ path: 'id' })]);
  expect((await server.request('GET', itemPath)).body).toEqual(read.body);
}

describe('PUT of an object as GET returned it', () => {
  it('alerts: plain, composite with a function, muted and scheduled; read-only fields are ignored', async () => {
    const schedule = await create('/v2/schedules/', { name: 'rt-nightly', start_time: '00:00', duration: 1440, repeat: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] });
    const plain = await create('/v2/alerts/', { name: 'rt-plain', metric: 'rt.plain', alert_criteria: { type: 'above', above_value: 1 } });
    const composite = await create('/v2/alerts/', {
      name: 'rt-composite',
      metric: 'sumSeries(rt.a.*)',
      alert_criteria: { type: 'outside_bounds', above_value: 10, below_value: 2, time_period: 5 },
      additional_criteria: { b: { type: 'missing', time_period: 10, metric: 'rt.b' } },
      expression: 'a || b',
      notification_type: 'state_change',
      info: 'runbook',
      scheduled_mutes: [schedule],
    });
    const plainRead = await expectRoundTrip(`/v2/alerts/${plain}/`);
    expect(plainRead.on_query_failure).toBeNull();
    const compositeRead = await expectRoundTrip(`/v2/alerts/${composite}/`);
    expect(compositeRead).toMatchObject({ muted: true, on_query_failure: 'notify', notification_type: ['state_change'] });

    expect((await server.request('POST', `/v2/alerts/${plain}/muted/`, { duration: 30 })).status).toBe(200);
    const muted = await expectRoundTrip(`/v2/alerts/${plain}/`);
    expect(muted.muted).toBe(true);

    // Read-only values that differ from the stored ones are ignored, not applied.
    const put = await server.request('PUT', `/v2/alerts/${plain}/`, { ...plainRead, status: 'alerting', muted: false, currently_triggered_metrics: ['x'], info: 'changed' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ status: 'healthy', muted: true, currently_triggered_metrics: [], info: 'changed' });
    await expectIdMismatch(`/v2/alerts/${plain}/`, composite);
  });

  it('channels, including one with a last delivery error', async () => {
    const email = await create('/v2/notifications/', { type: 'email', description: 'rt-mail', destination: 'ops@example.com' });
    await expectRoundTrip(`/v2/notifications/${email}/`);
    // A channel shows last_error only after a real delivery failed: a server whose evaluator pages PagerDuty.
    const paging = await startPagingServer();
    try {
      const pager = await paging.server.request('POST', '/v2/notifications/', { type: 'pagerduty', description: 'rt-pager', destination: 'integration-key', auto_resolve: true });
      await paging.page('rt-pager');
      await until(() => paging.server.request('GET', `/v2/notifications/${pager.body.id}/`), (r) => r.body.last_error !== undefined);
      const pagerRead = await expectRoundTrip(`/v2/notifications/${pager.body.id}/`, paging.server, ['last_error', 'pending_deliveries', 'oldest_pending_seconds']);
      expect(pagerRead.last_error).toEqual({ time: expect.stringMatching(/^\d+$/), message: expect.stringContaining('HTTP 5xx') });
    } finally {
      await paging.close();
    }
    await expectIdMismatch(`/v2/notifications/${email}/`, 'another-channel-id');
  });

  it('scheduled mutes, including one referenced by alerts', async () => {
    const weekend = await create('/v2/schedules/', { name: 'rt-weekend', start_time: '00:00', duration: 1440, timezone: 'UTC+2', repeat: ['sat', 'sun'] });
    const once = await create('/v2/schedules/', { name: 'rt-once', start_time: '13:30', duration: 15 });
    await create('/v2/alerts/', { name: 'rt-weekend-alert', metric: 'rt.w', alert_criteria: { type: 'below', below_value: 1 }, scheduled_mutes: [weekend] });
    const read = await expectRoundTrip(`/v2/schedules/${weekend}/`);
    expect(read.alerts).toHaveLength(1);
    // alerts is read-only: sending another list does not detach the alert.
    expect((await server.request('PUT', `/v2/schedules/${weekend}/`, { ...read, alerts: [] })).body.alerts).toEqual(read.alerts);
    await expectRoundTrip(`/v2/schedules/${once}/`);
    await expectIdMismatch(`/v2/schedules/${once}/`, weekend);
  });
});
