/**
 * `npm run bench:impact`: the backtest of 100 changed alerts (50 created, 50 updated, so 150 replays) over 7 days
 * of 60 s points, against a local render endpoint. The baseline, measured in the same run, is the bare time of the
 * very same render requests through the same client (no replay). Goals: the whole backtest within 10 s, and at
 * most 1.5x the baseline.
 */
import type { RenderSeries } from '../src/graphite/types.js';
import { loadDefinitions } from '../src/definitions/load.js';
import { computePlan } from '../src/plan/compute.js';
import { emptyActualState } from '../src/plan/state.js';
import type { AlertRead } from '../src/model/types.js';
import { computePlanImpact } from '../src/impact/compute-impact.js';
import { createBacktestClient, fetchWindowSeries, listTargetUses } from '../src/impact/fetch-window.js';
import type { CanonicalAlert } from '../src/plan/types.js';
import { startFakeRender } from '../test/helpers/fake-render-server.js';
import { describeMachine, formatMs, printGoal, printTable, timesOf } from './lib/report.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 100);
const WINDOW = 7 * 86_400;
const STEP = 60;
const now = Math.floor(Date.now() / 1000 / STEP) * STEP;

/** A series with a daily 20-minute spike (at a time of day of its own) over a noisy base, ~8 days of 60 s points. */
function seriesFor(target: string, fromMinutes: number): RenderSeries[] {
  const seed = [...target].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
  const spikeAt = (seed * 977) % 86_400;
  const datapoints: RenderSeries['datapoints'] = [];
  for (let t = now - fromMinutes * 60; t <= now; t += STEP) {
    const inSpike = (t - spikeAt + 86_400) % 86_400 < 1200;
    datapoints.push([inSpike ? 95 : 40 + ((t / STEP + seed) % 17), t]);
  }
  return [{ target, datapoints }];
}

function alertYaml(i: number): string {
  const kind = i % 10;
  if (kind === 8) return `  - {name: bench-${i}, metric: bench.host${i}.queue, alert_criteria: {type: missing, time_period: 10}, notification_channels: [pager]}`;
  if (kind === 9) {
    return `  - {name: bench-${i}, metric: bench.host${i}.cpu, alert_criteria: {type: above, above_value: 90, time_period: 5}, additional_criteria: {b: {metric: bench.host${i}.load, type: above, above_value: 50, time_period: 5}}, expression: "a && b", notification_channels: [pager, mail]}`;
  }
  return `  - {name: bench-${i}, metric: bench.host${i}.cpu, alert_criteria: {type: above, above_value: 90, time_period: 5}, notification_type: [every, 30], notification_channels: [pager, mail]}`;
}

async function main(): Promise<void> {
  const defs = loadDefinitions(
    [{ path: 'bench.yaml', text: `channels:\n  - {description: pager, type: pagerduty, destination: k, auto_resolve: true}\n  - {description: mail, type: email, destination: a@example.com}\nalerts:\n${Array.from({ length: ALERTS }, (_, i) => alertYaml(i)).join('\n')}\n` }],
    { env: {} },
  );
  if (defs.problems.length > 0) throw new Error(JSON.stringify(defs.problems.slice(0, 3)));
  // Half the alerts exist on the server with a longer time_period: those are updates, replayed twice.
  const state = emptyActualState();
  state.channels = [
    { id: 'c1', description: 'pager', type: 'pagerduty', destination: 'k', auto_resolve: true },
    { id: 'c2', description: 'mail', type: 'email', destination: 'a@example.com', auto_resolve: false },
  ];
  state.alerts = defs.definitions.alerts
    .filter((_, i) => i % 2 === 0)
    .map((a, i): AlertRead => ({
      id: `a${i}`,
      name: a.key,
      metric: a.spec.metric,
      alert_criteria: { ...a.spec.alert_criteria, time_period: 15 },
      additional_criteria: a.spec.additional_criteria ?? {},
      expression: a.spec.expression ?? 'a',
      notification_channels: ['c1'],
      notification_type: ['state_change'],
      scheduled_mutes: [],
      currently_triggered_metrics: [],
      muted: false,
      status: 'healthy',
      info: null,
      on_query_failure: null,
    }));
  const plan = computePlan(defs.definitions, state, new Date(now * 1000), { prune: false });

  const answers = new Map<string, RenderSeries[]>();
  const render = await startFakeRender((request) => {
    const fromMinutes = Number(/^-(\d+)min$/.exec(request.from ?? '')?.[1] ?? 60);
    return {
      series: request.targets.flatMap((target) => {
        const key = `${target}/${fromMinutes}`;
        if (!answers.has(key)) answers.set(key, seriesFor(target, fromMinutes));
        return answers.get(key)!;
      }),
    };
  });
  try {
    const changed = plan.changes.flatMap((c) => (c.kind === 'alert' && (c.action === 'create' || c.action === 'update') ? [c] : []));
    const uses = changed.flatMap((c) => [...listTargetUses(c.after as CanonicalAlert), ...(c.action === 'update' ? listTargetUses(c.before as CanonicalAlert) : [])]);

    // Warm-up: builds the fake's answers and warms the JIT, then the baseline and the backtest, each timed alone.
    await fetchWindowSeries(createBacktestClient(render.url), uses, WINDOW);
    render.requests.length = 0;
    let started = performance.now();
    await fetchWindowSeries(createBacktestClient(render.url), uses, WINDOW);
    const baselineMs = performance.now() - started;
    const baselineRequests = render.requests.length;

    render.requests.length = 0;
    started = performance.now();
    const outcome = await computePlanImpact(plan, {
      graphite: createBacktestClient(render.url),
      windowSeconds: WINDOW,
      now: new Date(now * 1000),
      definitions: defs.definitions,
      server: state,
    });
    const impactMs = performance.now() - started;
    const impactRequests = render.requests.length;
    const targets = new Set(uses.map((u) => u.target)).size;

    process.stdout.write(`${await describeMachine()}\n`);
    const replays = outcome.impact.alerts.length + outcome.impact.alerts.filter((a) => a.before).length;
    printTable(
      `bench:impact: ${changed.length} changed alerts (${replays} replays), ${targets} targets, 7 days at ${STEP} s (${Math.round(WINDOW / STEP)} steps each)`,
      ['run', 'render requests', 'time', 'ratio'],
      [
        ['baseline: the same render requests, bare', baselineRequests, formatMs(baselineMs), '1.0x'],
        ['backtest: fetch + replay + summary', impactRequests, formatMs(impactMs), timesOf(impactMs, baselineMs)],
      ],
    );
    process.stdout.write(`${outcome.impact.alerts.reduce((n, a) => n + a.fired, 0)} firings found; step ${outcome.impact.step_seconds} s\n`);
    printGoal('100 changed alerts over 7 days within 10 s', formatMs(impactMs), impactMs <= 10_000);
    printGoal('at most 1.5x the bare render requests', timesOf(impactMs, baselineMs), impactMs <= 1.5 * baselineMs);
    printGoal('at most one render request per target', `${impactRequests} requests for ${targets} targets`, impactRequests <= targets);
  } finally {
    await render.close();
  }
}

await main();
