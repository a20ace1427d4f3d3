import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite, type GraphitePoint } from '../../helpers/graphite.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { copyExamples } from '../reconciler/helpers.js';

/**
 * A real Graphite holding three days of minute points with known shapes, our server holding the current version
 * of one alert, and `alertform plan --graphite-url` backtesting two days. Every count below is worked out by hand
 * from the shapes (see each `expect`).
 */
const availability = graphiteAvailability();
const MINUTE = 60;
const HOUR = 3600;
const WINDOW = '2d';

let graphite: Graphite;
let server: TestServer;
let dir: string;
/** The last written minute (unix seconds, a multiple of 60). */
let last: number;

const spikes = [
  { at: () => last - 40 * HOUR, minutes: 10 },
  { at: () => last - 20 * HOUR, minutes: 20 },
  { at: () => last - 5 * HOUR, minutes: 3 },
];
const diskHigh = { at: () => last - 30 * HOUR, minutes: 150 };
const queueGap = { at: () => last - 10 * HOUR, minutes: 30 };

/** 12 hours ago, or 18 when that falls in the examples' deploy window (02:00-03:00 UTC, Tue/Thu) or near it. */
function latencySpike(): number {
  const candidate = last - 12 * HOUR;
  return new Date(candidate * 1000).getUTCHours() < 4 ? candidate - 6 * HOUR : candidate;
}

function within(time: number, span: { at: () => number; minutes: number }): boolean {
  return time >= span.at() && time < span.at() + span.minutes * MINUTE;
}

function history(): GraphitePoint[] {
  const points: GraphitePoint[] = [];
  for (let time = last - 3 * 24 * HOUR - HOUR; time <= last; time += MINUTE) {
    points.push({ path: 'impact.web.cpu', value: spikes.some((s) => within(time, s)) ? 95 : 10, time });
    points.push({ path: 'impact.hosts.a.disk', value: within(time, diskHigh) ? 85 : 50, time });
    points.push({ path: 'impact.hosts.b.disk', value: 50, time });
    points.push({ path: 'impact.hosts.c.disk', value: 40, time });
    // The example definitions' p99 latency: 300 ms, above 800 for 30 minutes about 12 hours ago.
    points.push({ path: 'shop.api.latency.p99', value: time >= latencySpike() && time < latencySpike() + 30 * MINUTE ? 950 : 300, time });
    if (!within(time, queueGap)) points.push({ path: 'impact.queue.depth', value: 7, time });
  }
  return points;
}

function hhmm(time: number): string {
  return new Date(time * 1000).toISOString().slice(11, 16);
}

const CHANNELS = `channels:
  - {description: pd-auto, type: pagerduty, destination: pd-key-1, auto_resolve: true}
  - {description: pd-plain, type: pagerduty, destination: pd-key-2}
  - {description: team-slack, type: slack, destination: "https://hooks.slack.com/services/T/B/x"}
`;

function cpuAlert(timePeriod: number): string {
  return `  - name: impact-cpu
    metric: impact.web.cpu
    alert_criteria: {type: above, above_value: 90, time_period: ${timePeriod}}
    notification_channels: [pd-auto, pd-plain, team-slack]
    notification_type: state_change
`;
}

async function cli(args: string[]) {
  return runCli(args, { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key, ALERTFORM_GRAPHITE_URL: undefined }, timeoutMs: 120_000 });
}

describe.skipIf(availability.skip)('plan --graphite-url against a real Graphite with history', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    [graphite, server] = await Promise.all([startGraphite({ retentions: '60s:8d' }), startTestServer()]);
    last = Math.floor(Date.now() / 1000 / MINUTE) * MINUTE;
    const points = history();
    await graphite.writePoints(points);
    // Carbon has the points once every series answers with all of its points.
    const expected = new Map<string, number>();
    for (const p of points) expected.set(p.path, (expected.get(p.path) ?? 0) + 1);
    for (const [path, count] of expected) {
      await graphite.waitForSeries(path, ([series]) => (series?.datapoints.filter(([v]) => v !== null).length ?? 0) >= count, { minutes: 3 * 24 * 60 + 70 });
    }
    dir = mkdtempSync(join(tmpdir(), 'af-impact-'));
    // The server's current version: impact-cpu alerting after 15 minutes above 90.
    writeFileSync(join(dir, 'channels.yaml'), CHANNELS);
    writeFileSync(join(dir, 'alerts.yaml'), `alerts:\n${cpuAlert(15)}`);
    const applied = await cli(['apply', dir, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    // The change under review.
    writeFileSync(
      join(dir, 'alerts.yaml'),
      `alerts:
${cpuAlert(5)}  - name: impact-disk
    metric: impact.hosts.*.disk
    alert_criteria: {type: above, above_value: 80}
    notification_channels: [team-slack]
    notification_type: [every, 60]
  - name: impact-cpu-muted
    metric: impact.web.cpu
    alert_criteria: {type: above, above_value: 90, time_period: 5}
    notification_channels: [team-slack]
    scheduled_mutes: [impact-morning]
  - name: impact-queue-silent
    metric: impact.queue.depth
    alert_criteria: {type: missing, time_period: 10}
    notification_channels: [team-slack]
  - name: impact-typo
    metric: impact.web.cpuu
    alert_criteria: {type: above, above_value: 1, time_period: 5}
  - name: impact-bad-function
    metric: nosuchFunction(impact.web.cpu)
    alert_criteria: {type: above, above_value: 1}
schedules:
  - {name: impact-morning, start_time: "${hhmm(spikes[0]!.at() - 10 * MINUTE)}", duration: 40, repeat: [mon, tue, wed, thu, fri, sat, sun]}
`,
    );
  });
  afterAll(async () => {
    await Promise.all([graphite?.stop(), server?.close()]);
  });

  it('replays each changed alert over the window and counts what it would have done', async () => {
    const result = await cli(['plan', dir, '--json', '--graphite-url', graphite.url, '--impact-window', WINDOW, '--max-series', '2']);
    // The rejected function is an error: the plan is shown, and refused.
    expect(result.code).toBe(1);
    const plan = JSON.parse(result.stdout);
    const byName = Object.fromEntries(plan.impact.alerts.map((a: { name: string }) => [a.name, a]));
    expect(plan.impact.window_seconds).toBe(2 * 24 * HOUR);
    // Minute data: replayed at the data's resolution, and the plan says so.
    expect(plan.impact.step_seconds).toBe(60);

    // Spikes of 10, 20 and 3 minutes above 90; "5 minutes above" holds from the 5th minute of a spike to its last:
    // 10-4 + 20-4 = 22 minutes in two episodes. State changes notify twice per episode, except the PagerDuty channel
    // without auto_resolve, which is never sent a recovery. The server's version (15 minutes) fires only on the
    // 20-minute spike, for 20-14 = 6 minutes.
    expect(byName['impact-cpu']).toMatchObject({
      action: 'update',
      fired: 2,
      alerting_minutes: 22,
      longest_episode_minutes: 16,
      notifications: { 'pd-auto': 4, 'pd-plain': 2, 'team-slack': 4 },
      before: { fired: 1, alerting_minutes: 6, longest_episode_minutes: 6, notifications: { 'pd-auto': 2, 'pd-plain': 1, 'team-slack': 2 } },
    });
    // One host at 85 for 150 minutes, instantaneous: alerting at once, reminders after 60 and 120 minutes, then the
    // recovery: 4 notifications.
    expect(byName['impact-disk']).toMatchObject({ action: 'create', fired: 1, alerting_minutes: 150, notifications: { 'team-slack': 4 } });
    // Same rule as impact-cpu, but the first spike falls in its daily mute: it still fires twice, and only the
    // second episode is told (alerting + recovery).
    expect(byName['impact-cpu-muted']).toMatchObject({ fired: 2, alerting_minutes: 22, notifications: { 'team-slack': 2 } });
    // A 30-minute gap, missing after 10: holds from the gap's 10th minute to its 30th, 21 minutes.
    expect(byName['impact-queue-silent']).toMatchObject({ fired: 1, alerting_minutes: 21, notifications: { 'team-slack': 2 } });
    expect(byName['impact-typo']).toMatchObject({ fired: 0, alerting_minutes: 0 });
    expect(plan.impact.skipped).toEqual([{ name: 'impact-bad-function', reason: expect.stringContaining('HTTP 400') }]);
    expect(plan.impact.summary).toBe('4 alerts would have fired 6 times in 2 days');

    expect(plan.warnings).toContain('alert "impact-typo": "impact.web.cpuu" matches no series with data over the last 2 days: a typo?');
    expect(plan.warnings).toContainEqual(expect.stringContaining('"impact.hosts.*.disk" matches 3 series (more than 2)'));
    expect(plan.problems).toEqual([
      expect.objectContaining({ path: 'alerts.5.metric', location: expect.objectContaining({ line: 25 }), text: expect.stringContaining('Graphite rejects the query "nosuchFunction(impact.web.cpu)"') }),
    ]);
  });

  it('runs the same live checks in validate --graphite-url, errors at file:line', async () => {
    const result = await cli(['validate', dir, '--graphite-url', graphite.url, '--window', WINDOW, '--max-series', '2']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('warning: alert "impact-typo": "impact.web.cpuu" matches no series with data over the last 2 days: a typo?');
    expect(result.stderr).toMatch(/alerts\.yaml:25:\d+ {2}alerts\.5\.metric {2}Graphite rejects the query "nosuchFunction\(impact\.web\.cpu\)"/);
  });

  it('prints the backtest in the text plan', async () => {
    writeFileSync(join(dir, 'alerts.yaml'), `alerts:\n${cpuAlert(5)}`);
    const result = await cli(['plan', dir, '--graphite-url', graphite.url, '--impact-window', WINDOW]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Replayed every 60 s (the data's resolution over this window)");
    expect(result.stdout).toContain('impact-cpu (update): fired 1 → 2, alerting 6 → 22 min, longest 6 → 16 min; notifications: pd-auto 2 → 4, pd-plain 1 → 2, team-slack 2 → 4');
    expect(result.stdout).toContain('1 alert would have fired 2 times in 2 days.');
  });

  it('backtests the example definitions: every alert they create, with a warning for each metric without data', async () => {
    const examples = copyExamples();
    const fresh = await startTestServer();
    try {
      const result = await runCli(['plan', examples, '--json', '--graphite-url', graphite.url, '--impact-window', WINDOW], {
        env: { ALERTFORM_URL: fresh.url, ALERTFORM_API_KEY: fresh.key },
        timeoutMs: 120_000,
      });
      expect(result.code, result.stderr).toBe(0);
      const plan = JSON.parse(result.stdout);
      expect(plan.impact.alerts).toHaveLength(12);
      // 30 minutes above 800; "10 minutes above" holds from the 10th to the 30th minute: 21 minutes, one episode.
      // notification_type [every, 30]: the alerting notice, no reminder (21 < 30), the recovery.
      expect(plan.impact.alerts.find((a: { name: string }) => a.name === 'shop-api-latency-p99')).toMatchObject({
        fired: 1,
        alerting_minutes: 21,
        notifications: { 'shop-team-slack': 2 },
      });
      expect(plan.impact.summary).toMatch(/^\d+ alerts? would have fired \d+ times? in 2 days$/);
      expect(plan.warnings).toContainEqual(expect.stringContaining('"shop.api.requests.rate" matches no series with data over the last 2 days: a typo?'));
    } finally {
      await fresh.close();
    }
  });
});
