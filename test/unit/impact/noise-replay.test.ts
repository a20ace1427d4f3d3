import { describe, expect, it } from 'vitest';
import type { GraphiteClient, RenderSeries } from '../../../src/graphite/index.js';
import { computePlan } from '../../../src/plan/compute.js';
import { computePlanImpact } from '../../../src/impact/compute-impact.js';
import { countMessages, type AlertTimeline } from '../../../src/impact/noise-replay.js';
import { renderPlanText } from '../../../src/plan/render/text.js';
import { renderPlanMarkdown } from '../../../src/plan/render/markdown.js';
import { toJsonPlan } from '../../../src/plan/render/json.js';
import { definitionsOf, NOW, stateOf as hostedStateOf } from '../plan/fixtures.js';

/** alertform's server, which answers the noise-control fields (null or [] when unused). */
const stateOf = (parts: Parameters<typeof hostedStateOf>[0] = {}) => {
  const state = hostedStateOf(parts);
  return { ...state, channels: state.channels.map((c) => ({ group_by: null, ...c })), alerts: state.alerts.map((a) => ({ depends_on: [], ...a })) };
};

const sendsTo = (channel: string, at: number, series: string, event: 'alerting' | 'recovered' = 'alerting') => ({ at, triggered: event === 'recovered' ? [] : [series], events: [{ event, channels: [channel] }] });

describe('countMessages', () => {
  const grouping = { nodes: [1], wait_seconds: 5, interval_seconds: 60 };

  it('merges a group: the first message after the wait, later members each interval, a quiet group ends', () => {
    const timeline: AlertTimeline = { states: [], sends: [0, 3, 10, 70, 200].map((at) => sendsTo('ops', at, 'servers.dc1.h.cpu')) };
    const count = countMessages({ counted: new Map([['cpu', timeline]]), replayed: new Map(), dependsOn: new Map(), groupBy: new Map([['ops', grouping]]) });
    // 5 (members 0, 3), 65 (10), 125 (70), then a new group at 205 (200).
    expect(count).toEqual({ without: 5, with: 4, held: 0 });
  });

  it('keeps groups of different path nodes apart, and channels without group_by one message each', () => {
    const timeline: AlertTimeline = { states: [], sends: [sendsTo('ops', 0, 'servers.dc1.a.cpu'), sendsTo('ops', 1, 'servers.dc2.a.cpu'), sendsTo('mail', 2, 'servers.dc1.b.cpu'), sendsTo('mail', 3, 'servers.dc1.c.cpu')] };
    const count = countMessages({ counted: new Map([['cpu', timeline]]), replayed: new Map(), dependsOn: new Map(), groupBy: new Map([['ops', grouping]]) });
    expect(count).toEqual({ without: 4, with: 4, held: 0 });
  });

  it('holds a child while its parent alerts, and its resolve with it; an episode that paged resolves', () => {
    const parent: AlertTimeline = { states: [{ at: 100, triggered: ['servers.dc1.sw1.ping'] }, { at: 500, triggered: null }], sends: [] };
    const child: AlertTimeline = {
      states: [],
      sends: [sendsTo('mail', 200, 'servers.dc1.h1.disk'), sendsTo('mail', 300, '', 'recovered'), sendsTo('mail', 600, 'servers.dc1.h1.disk'), sendsTo('mail', 700, '', 'recovered')],
    };
    const count = countMessages({
      counted: new Map([['disk', child]]),
      replayed: new Map([['ping', parent], ['disk', child]]),
      dependsOn: new Map([['disk', [{ alertId: 'ping' }]]]),
      groupBy: new Map(),
    });
    expect(count).toEqual({ without: 4, with: 2, held: 2 });
  });

  it('with nodes, holds only the series under the alerting parent series', () => {
    const parent: AlertTimeline = { states: [{ at: 0, triggered: ['hosts.h1.ping'] }], sends: [] };
    const child: AlertTimeline = { states: [], sends: [sendsTo('mail', 10, 'servers.dc1.h1.disk'), sendsTo('mail', 20, 'servers.dc1.h2.disk')] };
    const count = countMessages({
      counted: new Map([['disk', child]]),
      replayed: new Map([['ping', parent]]),
      dependsOn: new Map([['disk', [{ alertId: 'ping', nodes: [2], parentNodes: [1] }]]]),
      groupBy: new Map(),
    });
    expect(count).toEqual({ without: 2, with: 1, held: 1 });
  });
});

describe('plan --impact with noise control, over fixed series', () => {
  const END = Math.floor(NOW.getTime() / 1000);
  const DAY = 86_400;
  /** Minute points over 2 days: 100 from `from` to `until` seconds before now (the outage), 0 otherwise. */
  const outage = (target: string, from: number, until: number): RenderSeries => {
    const datapoints: RenderSeries['datapoints'] = [];
    for (let t = END - 2 * DAY; t <= END; t += 60) datapoints.push([t >= END - from && t < END - until ? 100 : 0, t]);
    return { target, datapoints };
  };
  const hosts = (pattern: string) => [0, 1, 2, 3, 4].map((h) => pattern.replace('*', `h${h}`));
  const graphite: GraphiteClient = {
    async render(queries) {
      return queries.map((q) => ({ ok: true as const, series: answer(q.target) }));
    },
    async renderEach(queries, onResult) {
      for (const [index, q] of queries.entries()) onResult(index, { ok: true, series: answer(q.target) });
    },
    graphUrl: () => '',
  };
  // The switch ping fails first and recovers last: every disk alert of dc1 falls inside it.
  const answer = (target: string): RenderSeries[] => (target.endsWith('.ping') ? [outage(target.replace('*', 'sw1'), 4.5 * 3600, 2.5 * 3600)] : hosts(target).map((t) => outage(t, 4 * 3600, 3 * 3600)));

  const alerts = (count: number, dc: string, extra = '') =>
    Array.from({ length: count }, (_, i) => `  - {name: ${dc}-m${i}, metric: servers.${dc}.*.m${i}, alert_criteria: {type: above, above_value: 50}, notification_channels: [ops], notification_type: state_change${extra}}`).join('\n');

  it('counts 10 alerts of 50 series in 2 data centres as 2 grouped alerting and 2 grouped resolving messages', async () => {
    const defs = definitionsOf(`
channels:
  - {description: ops, type: email, destination: ops@example.com, group_by: {nodes: [1]}}
alerts:
${alerts(5, 'dc1')}
${alerts(5, 'dc2')}
`);
    const plan = computePlan(defs, stateOf(), NOW);
    const outcome = await computePlanImpact(plan, { graphite, windowSeconds: DAY, now: NOW, definitions: defs, server: stateOf() });
    expect(outcome.impact.noise).toEqual({ without: 20, with: 4, held: 0 });
    expect(renderPlanText(plan, { impact: outcome })).toContain('\nNoise control: would have sent 4 messages instead of 20.\n');
    expect(renderPlanMarkdown(plan, { impact: outcome })).toContain('**Noise control: would have sent 4 messages instead of 20.**');
    expect((toJsonPlan(plan, outcome).impact as { noise: unknown }).noise).toEqual({ without: 20, with: 4, held: 0, summary: 'Noise control: would have sent 4 messages instead of 20.' });
  });

  it('holds the children of an alerting parent the plan does not change: no page, no resolve', async () => {
    const defs = definitionsOf(`
channels:
  - {description: ops, type: email, destination: ops@example.com}
alerts:
  - {name: switch, metric: servers.dc1.*.ping, alert_criteria: {type: above, above_value: 50}, notification_channels: [ops], notification_type: state_change}
${alerts(3, 'dc1', ', depends_on: [switch]')}
`);
    // The switch alert is on the server as defined: only its children change.
    const server = stateOf({ alerts: [{ id: 'a-sw', name: 'switch', metric: 'servers.dc1.*.ping', alert_criteria: { type: 'above', above_value: 50 }, notification_channels: ['c-ops'], notification_type: ['state_change'], scheduled_mutes: [], currently_triggered_metrics: [], muted: false, status: 'healthy', info: null, on_query_failure: null }], channels: [{ id: 'c-ops', description: 'ops', type: 'email', destination: 'ops@example.com', auto_resolve: false }] });
    const plan = computePlan(defs, server, NOW);
    expect(plan.changes.map((c) => c.id)).toEqual(['alert:dc1-m0:create', 'alert:dc1-m1:create', 'alert:dc1-m2:create']);
    const outcome = await computePlanImpact(plan, { graphite, windowSeconds: DAY, now: NOW, definitions: defs, server });
    expect(outcome.impact.noise).toEqual({ without: 6, with: 0, held: 6 });
    expect(outcome.impact.alerts.map((a) => a.name)).toEqual(['dc1-m0', 'dc1-m1', 'dc1-m2']);
    expect(renderPlanText(plan, { impact: outcome })).toContain('Noise control: would have sent 0 messages instead of 6 (6 held by dependencies).');
  });

  it('counts nothing when no changed alert depends or groups', async () => {
    const defs = definitionsOf(`
channels:
  - {description: ops, type: email, destination: ops@example.com}
alerts:
${alerts(2, 'dc1')}
`);
    const plan = computePlan(defs, stateOf(), NOW);
    const outcome = await computePlanImpact(plan, { graphite, windowSeconds: DAY, now: NOW, definitions: defs, server: stateOf() });
    expect(outcome.impact.noise).toBeUndefined();
    expect(renderPlanText(plan, { impact: outcome })).not.toContain('Noise control');
  });
});
