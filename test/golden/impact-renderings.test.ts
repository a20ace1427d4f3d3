import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GraphiteClient, RenderSeries } from '../../src/graphite/index.js';
import { computePlan } from '../../src/plan/compute.js';
import { renderPlanMarkdown } from '../../src/plan/render/markdown.js';
import { renderPlanJson } from '../../src/plan/render/json.js';
import { renderPlanText } from '../../src/plan/render/text.js';
import { computePlanImpact } from '../../src/impact/compute-impact.js';
import { composePlanComment } from '../../src/action/compose.js';
import { GITHUB_COMMENT_LIMIT } from '../../src/action/comment.js';
import { alertRead, channelRead, definitionsOf, NOW, stateOf } from '../unit/plan/fixtures.js';

/**
 * Expected renderings live next to this file. A missing golden file FAILS (it is never written by a plain run):
 * write or refresh them on purpose with `UPDATE_GOLDEN=1 npx vitest run test/golden/impact-renderings.test.ts`.
 */
function matchGolden(name: string, actual: string): void {
  const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  if (!existsSync(path)) throw new Error(`golden file ${name} is missing: run with UPDATE_GOLDEN=1 to write it, then review it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const END = Math.floor(NOW.getTime() / 1000);
const DAY = 86_400;

/** Minute points over 8 days: cpu 10 with daily 30-minute spikes to 95 at 14:00, disk a slow climb past 80. */
function synthetic(target: string): RenderSeries[] {
  const points = (value: (t: number) => number | null): RenderSeries['datapoints'] => {
    const out: RenderSeries['datapoints'] = [];
    for (let t = END - 8 * DAY; t <= END; t += 60) out.push([value(t), t]);
    return out;
  };
  if (target === 'api.cpu') return [{ target, datapoints: points((t) => (t % DAY >= 14 * 3600 && t % DAY < 14 * 3600 + 1800 ? 95 : 10)) }];
  if (target === 'hosts.*.disk') return [{ target: 'hosts.db1.disk', datapoints: points((t) => 60 + ((t - (END - 8 * DAY)) / (8 * DAY)) * 30) }];
  return [];
}

/** A GraphiteClient answering from the shapes above, in process (the renderer is under test here, not Graphite). */
const graphite: GraphiteClient = {
  async render(queries) {
    return queries.map((q) => ({ ok: true as const, series: synthetic(q.target) }));
  },
  async renderEach(queries, onResult) {
    for (const [index, q] of queries.entries()) onResult(index, { ok: true, series: synthetic(q.target) });
  },
  graphUrl: () => '',
};

async function plannedWithImpact() {
  const defs = definitionsOf(`
channels:
  - {description: team-pager, type: pagerduty, destination: pd-key, auto_resolve: true}
  - {description: team-mail, type: email, destination: team@example.com}
alerts:
  - name: team-cpu
    metric: api.cpu
    alert_criteria: {type: above, above_value: 90, time_period: 10}
    notification_channels: [team-pager, team-mail]
  - name: team-disk
    metric: hosts.*.disk
    alert_criteria: {type: above, above_value: 80, time_period: 5}
    notification_channels: [team-mail]
    notification_type: [every, 720]
`);
  const state = stateOf({
    channels: [channelRead({ id: 'c-mail', description: 'team-mail', destination: 'team@example.com' }), channelRead({ id: 'c-pd', description: 'team-pager', type: 'pagerduty', destination: 'pd-key', auto_resolve: true })],
    alerts: [alertRead({ id: 'a-cpu', name: 'team-cpu', metric: 'api.cpu', alert_criteria: { type: 'above', above_value: 90, time_period: 40 }, notification_channels: ['c-pd', 'c-mail'], notification_type: ['state_change'] })],
  });
  const plan = computePlan(defs, state, NOW, { prune: false });
  const computed = JSON.stringify(plan);
  const impact = await computePlanImpact(plan, { graphite, windowSeconds: 7 * DAY, now: NOW, definitions: defs, server: state });
  // The backtest is carried beside the plan: the computed plan is exactly what it was.
  expect(JSON.stringify(plan)).toBe(computed);
  return { plan, impact };
}

describe('plan renderings with a backtest', () => {
  it('renders the PR comment markdown with a table and a mermaid chart per changed alert', async () => {
    const { plan, impact } = await plannedWithImpact();
    const markdown = renderPlanMarkdown(plan, { impact });
    // Hand-counted: a 30-minute spike a day, 7 in the window; "10 minutes above" holds for its last 21 minutes.
    expect(impact.impact.alerts.find((a) => a.name === 'team-cpu')).toMatchObject({ fired: 7, alerting_minutes: 147, before: { fired: 0 } });
    expect(markdown).toContain('#### Backtest: 2 alerts would have fired 8 times in 7 days');
    expect(markdown.match(/```mermaid\nxychart-beta/g)).toHaveLength(2);
    matchGolden('impact-plan.md', markdown);
    const comment = composePlanComment({ marker: '<!-- alertform-plan hash=x path=. -->', path: '.', plan, impact, hash: 'x' });
    expect(comment).toContain('#### Backtest: 2 alerts would have fired 8 times in 7 days');
    expect(comment.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
  });

  it('renders text and JSON with before -> after for the updated alert', async () => {
    const { plan, impact } = await plannedWithImpact();
    matchGolden('impact-plan.txt', renderPlanText(plan, { impact }));
    const json = JSON.parse(renderPlanJson(plan, impact));
    expect(json.impact.alerts.map((a: { name: string }) => a.name)).toEqual(['team-cpu', 'team-disk']);
    expect(json.impact.alerts[0]).toMatchObject({ name: 'team-cpu', fired: 7, alerting_minutes: 147, notifications: { 'team-pager': 14, 'team-mail': 14 }, before: { fired: 0, alerting_minutes: 0, notifications: { 'team-pager': 0, 'team-mail': 0 } } });
    expect(json.impact.alerts[0].chart).toBeUndefined();
  });
});
