import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/compute.js';
import { renderPlanText } from '../../src/plan/render/text.js';
import { renderPlanMarkdown } from '../../src/plan/render/markdown.js';
import { renderPlanJson } from '../../src/plan/render/json.js';
import { alertRead, channelRead, definitionsOf, GOLDEN_DEFINITIONS, NOW, stateOf } from '../unit/plan/fixtures.js';

/**
 * Expected renderings live next to this file; `UPDATE_GOLDEN=1 npx vitest run test/golden` rewrites them. A missing
 * golden file fails the test (it is never written unasked: a test that writes its own expectation proves nothing).
 */
function matchGolden(name: string, actual: string): void {
  const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  if (!existsSync(path)) expect.fail(`golden file test/golden/${name} is missing: write it with UPDATE_GOLDEN=1 npx vitest run test/golden, then review it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const SECRET = GOLDEN_DEFINITIONS.env.PD_KEY;

function goldenPlan() {
  const defs = definitionsOf(GOLDEN_DEFINITIONS.yaml, GOLDEN_DEFINITIONS.env);
  const state = stateOf({
    channels: [channelRead({ id: 'c-mail', description: 'team-mail', destination: 'team@example.com' }), channelRead({ id: 'c-old', description: 'team-old-slack', type: 'slack', destination: 'https://hooks.slack.com/services/OLD' })],
    alerts: [
      alertRead({ id: 'a-lat', name: 'team-latency', metric: 'api.latency.p99', alert_criteria: { type: 'above', above_value: 800 }, notification_channels: ['c-mail'], info: 'p99 latency is above 800 ms; check the database connection pool before paging', status: 'alerting' }),
      alertRead({ id: 'a-disk', name: 'team-disk', metric: 'hosts.*.disk', alert_criteria: { type: 'above', above_value: 90 }, notification_channels: ['c-mail'], muted: true }),
      alertRead({ id: 'a-gone', name: 'team-retired', notification_channels: ['c-old'] }),
      alertRead({ id: 'a-else', name: 'someone-elses' }),
    ],
  });
  return computePlan(defs, state, NOW, { prune: { match: ['team-*'], max_deletes: 5 } });
}

describe('plan renderings', () => {
  it('renders text for a terminal without escape codes when colours are off', () => {
    const text = renderPlanText(goldenPlan(), { color: false });
    expect(text).not.toMatch(/\u001b\[/);
    matchGolden('plan.txt', text);
  });

  it('renders text with colours only when asked', () => {
    expect(renderPlanText(goldenPlan(), { color: true })).toMatch(/\u001b\[/);
  });

  it('names unmanaged objects with verbose', () => {
    matchGolden('plan-verbose.txt', renderPlanText(goldenPlan(), { verbose: true }));
  });

  it('renders markdown for a pull request comment', () => {
    matchGolden('plan.md', renderPlanMarkdown(goldenPlan()));
  });

  it('renders JSON with formatVersion 1', () => {
    const json = renderPlanJson(goldenPlan());
    expect(JSON.parse(json).formatVersion).toBe(1);
    matchGolden('plan.json', json);
  });

  it('keeps the secret out of every rendering', () => {
    const plan = goldenPlan();
    for (const out of [renderPlanText(plan), renderPlanText(plan, { color: true, verbose: true }), renderPlanMarkdown(plan), renderPlanJson(plan)]) {
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain('hooks.slack.com/services/OLD');
    }
  });

  it('masks every credential-bearing destination, the VictorOps endpoint (it carries the API key) included', () => {
    const plan = computePlan(
      definitionsOf(
        'channels:\n' +
          '  - {description: vo, type: victorops, destination: "https://alert.victorops.com/integrations/generic/20131114/alert/VO-KEY/route"}\n' +
          '  - {description: pd, type: pagerduty, destination: PD-KEY}\n' +
          '  - {description: mail, type: email, destination: ops@example.com}\n',
      ),
      stateOf(),
      NOW,
    );
    for (const out of [renderPlanText(plan), renderPlanMarkdown(plan), renderPlanJson(plan)]) {
      expect(out).not.toContain('VO-KEY');
      expect(out).not.toContain('PD-KEY');
      expect(out).toContain('ops@example.com');
    }
  });
});
