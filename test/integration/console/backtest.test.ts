import { afterEach, describe, expect, it } from 'vitest';
import { startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer } from '../../helpers/server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A day and a half of one-minute points at 10, with 10 minutes at 95 five hours ago and 20 minutes at 95 two hours ago. */
function spikySeries(target: string, now: number) {
  const end = Math.floor(now / 60) * 60;
  const datapoints: [number, number][] = [];
  for (let t = end - 36 * 3600; t <= end; t += 60) {
    const hot = (t >= end - 5 * 3600 && t < end - 5 * 3600 + 600) || (t >= end - 2 * 3600 && t < end - 2 * 3600 + 1200);
    datapoints.push([hot ? 95 : 10, t]);
  }
  return { target, datapoints };
}

describe('the backtest of an alert', () => {
  it('replays the current definition over the window with plan --impact’s code: episodes, minutes and notifications per channel', async () => {
    const render = await startFakeRender((request) => ({ series: request.targets.map((target) => spikySeries(target, Date.now() / 1000)) }));
    closers.push(render.close);
    const server = await startTestServer({ keys: ['backtest-key', 'other-key'], graphiteUrl: render.url, evalIntervalSeconds: 3600 });
    closers.push(() => server.close());
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'spiky',
      metric: 'web.cpu',
      alert_criteria: { type: 'above', above_value: 90 },
      notification_type: ['state_change'],
    });
    const id = created.body.id as string;
    // The alert's one channel (Email me), by id.
    const channelId = (await server.request('GET', `/v2/alerts/${id}/`)).body.notification_channels[0];
    expect(channelId).toMatch(/^[0-9a-f]{32}$/);

    const response = await server.request('GET', `/v2/alerts/${id}/backtest/?window=24h`);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ window_seconds: 86_400, fired: 2, error: null, note: null });
    expect(body.episodes).toHaveLength(2);
    expect(body.longest_episode_seconds).toBeGreaterThanOrEqual(1140);
    expect(body.longest_episode_seconds).toBeLessThanOrEqual(1260);
    expect(body.minutes_alerting).toBeGreaterThanOrEqual(28);
    expect(body.minutes_alerting).toBeLessThanOrEqual(32);
    // state_change: each episode notifies its start and its end.
    expect(body.notifications).toEqual([{ channel_id: channelId, count: 4 }]);
    // One render for the whole window plus the criterion's look-back, not one per step.
    expect(render.requests.filter((r) => r.from !== null && Number(r.from.slice(1, -3)) >= 1440)).toHaveLength(1);

    expect((await server.request('GET', `/v2/alerts/${id}/backtest/`, undefined, { key: 'other-key' })).status).toBe(404);
    const bad = await server.request('GET', `/v2/alerts/${id}/backtest/?window=30d`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: 'window', message: 'must be a duration from 1h to 14d, e.g. 7d, 36h' }]);
  });

  it('says why it has no figures when the server reads no Graphite', async () => {
    const server = await startTestServer();
    closers.push(() => server.close());
    const created = await server.request('POST', '/v2/alerts/', { name: 'a', metric: 'x.y', alert_criteria: { type: 'above', above_value: 1 } });
    const response = await server.request('GET', `/v2/alerts/${created.body.id}/backtest/`);
    expect(response.body).toEqual({
      window_seconds: 604_800,
      fired: 0,
      minutes_alerting: 0,
      longest_episode_seconds: 0,
      episodes: [],
      notifications: [],
      error: 'this server reads no Graphite (alertform serve --graphite-url)',
      note: null,
    });
  });
});
