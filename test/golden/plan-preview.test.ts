import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/compute.js';
import { renderPlanJson } from '../../src/plan/render/json.js';
import { renderPlanMarkdown } from '../../src/plan/render/markdown.js';
import { renderPlanText } from '../../src/plan/render/text.js';
import { alertRead, channelRead, definitionsOf, NOW, stateOf } from '../unit/plan/fixtures.js';

/** As plan-renderings.test.ts: `UPDATE_GOLDEN=1 npx vitest run test/golden` rewrites, a missing file fails. */
function matchGolden(name: string, actual: string): void {
  const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  if (!existsSync(path)) expect.fail(`golden file test/golden/${name} is missing: write it with UPDATE_GOLDEN=1 npx vitest run test/golden, then review it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const ENV = { PD_KEY: 'pd-routing-S3CRET', RUNBOOK: 'https://wiki.internal/S3CRET-runbook' };

const YAML = `
channels:
  - description: ops slack
    type: slack
    destination: https://hooks.slack.com/services/T/B/x
    template:
      title: "*{{name}}* is {{event}}"
      body: |
        {{#triggered}}- {{metric}} = {{value}}
        {{/triggered}}{{info}}
        {{#links.ack}}<{{links.ack}}|Acknowledge>{{/links.ack}}
  - description: ops genie
    type: opsgenie
    destination: og-key
    template:
      title: "{{name}} ({{criteria}}) on {{metric}}, value {{value}}, since {{time}}: see the runbook in the description"
  - description: pager
    type: pagerduty
    destination: \${PD_KEY}
alerts:
  - name: Disk <full> & *root* "quoted"
    metric: hosts.*.disk.root
    alert_criteria: {type: above, above_value: 95}
    notification_channels: [ops slack, ops genie, pager]
    info: \${RUNBOOK}
    pagerduty_severity: warning
    opsgenie_priority: P2
  - name: unchanged
    metric: a.b
    alert_criteria: {type: below, below_value: 3}
    notification_channels: [ops slack]
`;

function previewPlan() {
  const state = stateOf({
    channels: [
      channelRead({ id: 'c-og', description: 'ops genie', type: 'opsgenie', destination: 'og-key', template: { title: '{{summary}}' } }),
      channelRead({ id: 'c-pd', description: 'pager', type: 'pagerduty', destination: 'pd-routing-S3CRET', template: null }),
    ],
    alerts: [
      alertRead({ id: 'a-1', name: 'unchanged', metric: 'a.b', alert_criteria: { type: 'below', below_value: 3 }, notification_channels: ['c-slack-not-yet'] }),
    ],
  });
  return computePlan(definitionsOf(YAML, ENV), state, NOW);
}

describe('plan previews of templated messages', () => {
  it('preview a created or changed channel template with a sample alert, and a changed alert with its own fields', () => {
    const plan = previewPlan();
    expect(plan.previews!.map((p) => [p.changeId, p.channel, p.subject])).toEqual([
      ['channel:ops genie:update', 'ops genie', 'sample'],
      ['channel:ops slack:create', 'ops slack', 'sample'],
      ['alert:Disk <full> & *root* "quoted":create', 'ops genie', 'alert'],
      ['alert:Disk <full> & *root* "quoted":create', 'ops slack', 'alert'],
      ['alert:unchanged:update', 'ops slack', 'alert'],
    ]);
    // OpsGenie's message is cut at 130 characters, as the notifier cuts it.
    expect(plan.previews![2]!.title).toHaveLength(130);
    expect(plan.previews![2]!.title.endsWith('…')).toBe(true);
  });

  it('render in text, markdown and JSON with the environment values masked', () => {
    const plan = previewPlan();
    const text = renderPlanText(plan, { color: false });
    const markdown = renderPlanMarkdown(plan);
    const json = renderPlanJson(plan);
    for (const rendering of [text, markdown, json]) {
      expect(rendering).not.toContain('S3CRET');
      expect(rendering).toContain('(sensitive)');
    }
    matchGolden('plan-preview.txt', text);
    matchGolden('plan-preview.md', markdown);
    matchGolden('plan-preview.json', json);
  });

  it('leave plans without templates as they were: no previews key', () => {
    const plan = computePlan(definitionsOf('channels:\n  - {description: m, type: email, destination: a@example.com}\n'), stateOf(), NOW);
    expect(plan.changes).toHaveLength(1);
    expect('previews' in plan).toBe(false);
    expect(JSON.parse(renderPlanJson(plan))).not.toHaveProperty('previews');
  });
});
