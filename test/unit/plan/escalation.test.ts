import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../../src/definitions/load.js';
import { computePlan } from '../../../src/plan/compute.js';
import { renderPulledDefinitions } from '../../../src/plan/pull.js';
import { alertAdapter } from '../../../src/plan/adapters/alert.js';
import { IdRegistry } from '../../../src/plan/references.js';
import { renderPlanText } from '../../../src/plan/render/text.js';
import { renderPlanMarkdown } from '../../../src/plan/render/markdown.js';
import { renderPlanJson } from '../../../src/plan/render/json.js';
import type { CreateOf, UpdateOf } from '../../../src/plan/types.js';
import { alertformStateOf, alertRead, channelRead, definitionsOf, NOW, stateOf } from './fixtures.js';

const CHANNELS = `
channels:
  - {description: oncall, type: email, destination: oncall@example.com}
  - {description: lead, type: email, destination: lead@example.com}
  - {description: manager, type: email, destination: manager@example.com}
`;

/** The problems of loading `yaml` as defs.yaml, as `line:column path: message`. */
function problemsOf(yaml: string): string[] {
  return loadDefinitions([{ path: 'defs.yaml', text: yaml }], { env: {} }).problems.map(
    (p) => `${p.location?.line}:${p.location?.column} ${p.path}: ${p.message}`,
  );
}

/** Our server's channels (ids ch-oncall, ch-lead, ch-manager) and an alert `cpu` with `escalation` as it answers. */
function serverWith(escalation: { after_minutes: number; notification_channels: string[] }[] | undefined) {
  return stateOf({
    channels: ['oncall', 'lead', 'manager'].map((d) => channelRead({ id: `ch-${d}`, description: d, destination: `${d}@example.com` })),
    alerts: [alertRead({ id: 'a1', name: 'cpu', metric: 'web.cpu', notification_channels: ['ch-oncall'], ...(escalation ? { escalation } : {}) })],
  });
}

const ALERT = (escalation: string) => `
alerts:
  - name: cpu
    metric: web.cpu
    alert_criteria: {type: above, above_value: 1}
    notification_channels: [oncall]
${escalation}`;

describe('escalation in definitions', () => {
  it('expands a policy into the steps of every alert that names it', () => {
    const defs = definitionsOf(`${ALERT('    escalation: business-hours')}
escalation_policies:
  - name: business-hours
    steps:
      - {after: 15m, notify: [lead]}
      - {after: 1h, notify: [manager, lead]}
`);
    expect(defs.alerts[0]!.spec.escalation).toEqual([{ after: '15m', notify: ['lead'] }, { after: '1h', notify: ['manager', 'lead'] }]);
  });

  it('reports an unknown policy, duplicate policies in both places, bad and unordered steps, at file:line:column', () => {
    expect(problemsOf(`${ALERT('    escalation: nightly')}
escalation_policies:
  - name: day
    steps: [{after: 30m, notify: [lead]}, {after: 30m, notify: [manager]}]
  - name: day
    steps: [{after: 90s, notify: [lead]}]
`)).toEqual([
      '7:17 alerts.0.escalation: no escalation policy named "nightly" (policies: day)',
      '9:5 escalation_policies.0: duplicate escalation policy name "day": also defined at defs.yaml:11:5',
      "10:51 escalation_policies.0.steps.1.after: steps must come strictly later one after another: 30m is not after the previous step's 30m",
      '11:5 escalation_policies.1: duplicate escalation policy name "day": also defined at defs.yaml:9:5',
      '12:21 escalation_policies.1.steps.0.after: must be a duration of whole minutes from 1m to 7d (e.g. 15m, 1h), not "90s"',
    ]);
    expect(problemsOf(ALERT('    escalation: [{after: 15, notify: [lead]}, {after: 900, notify: [lead]}]'))).toEqual([
      '7:26 alerts.0.escalation.0.after: must be a duration of whole minutes from 1m to 7d (e.g. 15m, 1h), not 15 (a bare number is seconds)',
    ]);
    expect(problemsOf(ALERT('    escalation:\n      - {after: 2h, notify: [lead]}\n      - {after: 1h, notify: [lead]}'))).toEqual([
      "9:17 alerts.0.escalation.1.after: steps must come strictly later one after another: 60m is not after the previous step's 120m",
    ]);
  });

  it('reports a step channel that is nowhere at plan time, in the policy that names it', () => {
    const defs = definitionsOf(`${ALERT('    escalation: p')}${CHANNELS}
escalation_policies:
  - name: p
    steps:
      - {after: 5m, notify: [lead, nobody]}
`);
    const plan = computePlan(defs, alertformStateOf(), NOW);
    expect(plan.problems.map((p) => `${p.location?.line} ${p.path}: ${p.message}`)).toEqual([
      '16 alerts.0.escalation.0.notify.1: no channel "nobody" in these files or on the server',
    ]);
  });

  it('creates the channels a step names before the alert, and sends the steps by id; a create without steps has no such field', () => {
    const defs = definitionsOf(`${ALERT('    escalation: [{after: 10m, notify: [lead]}]')}${CHANNELS}`);
    const plan = computePlan(defs, stateOf(), NOW);
    const create = plan.changes.find((c) => c.id === 'alert:cpu:create') as CreateOf<'alert'>;
    expect(create.dependsOn.sort()).toEqual(['channel:lead:create', 'channel:oncall:create']);
    const ids = new IdRegistry();
    ids.set('channel', 'lead', 'ch-lead');
    ids.set('channel', 'oncall', 'ch-oncall');
    expect(alertAdapter.createBody(create.after, ids).escalation).toEqual([{ after_minutes: 10, notification_channels: ['ch-lead'] }]);
    const plain = computePlan(definitionsOf(`${ALERT('')}${CHANNELS}`), stateOf(), NOW).changes.find((c) => c.id === 'alert:cpu:create') as CreateOf<'alert'>;
    expect('escalation' in alertAdapter.createBody(plain.after, ids)).toBe(false);
  });

  it('plans as no-op what the server answers, an update when the steps differ, and renders it in text, markdown and JSON', () => {
    const defs = definitionsOf(`${ALERT('    escalation: [{after: 1h, notify: [manager, lead]}]')}`);
    expect(computePlan(defs, serverWith([{ after_minutes: 60, notification_channels: ['ch-lead', 'ch-manager'] }]), NOW).changes).toEqual([]);
    const plan = computePlan(defs, serverWith([{ after_minutes: 30, notification_channels: ['ch-lead'] }]), NOW);
    const update = plan.changes[0] as UpdateOf<'alert'>;
    expect(update).toMatchObject({ action: 'update', diffs: [{ path: 'escalation', before: [{ after_minutes: 30, notification_channels: ['lead'] }], after: [{ after_minutes: 60, notification_channels: ['lead', 'manager'] }] }] });
    expect(alertAdapter.updateBody(update.after, new IdRegistry(), ['escalation'])).toEqual({ escalation: [{ after_minutes: 60, notification_channels: ['lead', 'manager'] }] });
    expect(renderPlanText(plan, { color: false })).toContain(
      '~ escalation: [{"after_minutes":30,"notification_channels":["lead"]}] → [{"after_minutes":60,"notification_channels":["lead","manager"]}]',
    );
    expect(renderPlanMarkdown(plan)).toContain('escalation');
    expect(JSON.parse(renderPlanJson(plan)).changes[0].diffs[0].path).toBe('escalation');
    // Removing the steps from the file clears them on the server (an update sends []).
    const cleared = computePlan(definitionsOf(ALERT('')), serverWith([{ after_minutes: 30, notification_channels: ['ch-lead'] }]), NOW).changes[0] as UpdateOf<'alert'>;
    expect(alertAdapter.updateBody(cleared.after, new IdRegistry(), ['escalation'])).toEqual({ escalation: [] });
  });

  it('does not compare steps against a server that does not answer the field (the hosted service), and says it cannot manage them there', () => {
    const defs = definitionsOf(`${ALERT('    escalation: [{after: 1h, notify: [lead]}]')}`);
    const plan = computePlan(defs, serverWith(undefined), NOW);
    expect(plan.changes).toEqual([]);
    expect(plan.problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.path}: ${p.message}`)).toEqual([
      '7:17 alerts.0.escalation: escalation is an alertform server extension, and this server does not answer it (the hosted service has no such field); remove it, or plan against alertform serve',
    ]);
  });

  it('pulls inline steps that plan as no-op', () => {
    const state = serverWith([{ after_minutes: 15, notification_channels: ['ch-lead'] }, { after_minutes: 90, notification_channels: ['ch-manager', 'ch-lead'] }]);
    const files = renderPulledDefinitions(state);
    const alerts = files.find((f) => f.name === 'alerts.yaml')!.text;
    expect(alerts).toContain('escalation:\n      - after: 15m\n        notify:\n          - lead\n      - after: 90m\n        notify:\n          - lead\n          - manager\n');
    const pulled = loadDefinitions(files.map((f) => ({ path: f.name, text: f.text })), { env: {} });
    expect(pulled.problems).toEqual([]);
    expect(computePlan(pulled.definitions, state, NOW).changes.filter((c) => c.kind === 'alert')).toEqual([]);
  });
});
