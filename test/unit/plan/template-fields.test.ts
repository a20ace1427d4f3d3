import { describe, expect, it } from 'vitest';
import { adapterFor } from '../../../src/plan/adapters/registry.js';
import { computePlan } from '../../../src/plan/compute.js';
import { IdRegistry } from '../../../src/plan/references.js';
import { alertRead, channelRead, definitionsOf, NOW, stateOf } from './fixtures.js';

const YAML = `
channels:
  - {description: hook, type: webhook, destination: "https://h.example/x", template: {title: "{{summary}}"}}
alerts:
  - {name: cpu, metric: a.b, alert_criteria: {type: above, above_value: 1}, notification_channels: [hook], pagerduty_severity: info, opsgenie_priority: P5}
`;

describe('template, severity and priority in plans', () => {
  it('are not compared against a server that does not return them (the hosted service): no perpetual diff', () => {
    const state = stateOf({
      channels: [channelRead({ id: 'c-hook', description: 'hook', type: 'webhook', destination: 'https://h.example/x' })],
      alerts: [alertRead({ id: 'a-cpu', name: 'cpu', metric: 'a.b', notification_channels: ['c-hook'] })],
    });
    const plan = computePlan(definitionsOf(YAML), state, NOW);
    expect(plan.changes).toEqual([]);
    expect(plan.summary.noOp).toBe(2);
  });

  it('are compared against a server that returns them, null included', () => {
    const state = stateOf({
      channels: [channelRead({ id: 'c-hook', description: 'hook', type: 'webhook', destination: 'https://h.example/x', template: null })],
      alerts: [alertRead({ id: 'a-cpu', name: 'cpu', metric: 'a.b', notification_channels: ['c-hook'], pagerduty_severity: 'info', opsgenie_priority: null })],
    });
    const plan = computePlan(definitionsOf(YAML), state, NOW);
    const diffs = plan.changes.flatMap((c) => (c.action === 'update' ? c.diffs.map((d) => `${c.key} ${d.path}`) : []));
    expect(diffs).toEqual(['hook template', 'cpu opsgenie_priority']);
  });

  it('are left out of create bodies when unset, so those bodies are exactly the Hosted Graphite ones', () => {
    const defs = definitionsOf(`
channels:
  - {description: hook, type: webhook, destination: "https://h.example/x"}
alerts:
  - {name: cpu, metric: a.b, alert_criteria: {type: above, above_value: 1}, notification_channels: [hook]}
`);
    const plan = computePlan(defs, stateOf(), NOW);
    const ids = new IdRegistry();
    for (const change of plan.changes) {
      if (change.action !== 'create') continue;
      const body = change.kind === 'alert' ? adapterFor('alert').createBody(change.after, ids) : change.kind === 'channel' ? adapterFor('channel').createBody(change.after, ids) : {};
      expect(Object.keys(body)).not.toContain('template');
      expect(Object.keys(body)).not.toContain('pagerduty_severity');
      expect(Object.keys(body)).not.toContain('opsgenie_priority');
    }
    const withThem = computePlan(definitionsOf(YAML), stateOf(), NOW);
    const channel = withThem.changes.find((c) => c.kind === 'channel' && c.action === 'create')!;
    const alert = withThem.changes.find((c) => c.kind === 'alert' && c.action === 'create')!;
    expect(channel.action === 'create' && adapterFor('channel').createBody(channel.after as never, ids)).toMatchObject({ template: { title: '{{summary}}' } });
    expect(alert.action === 'create' && adapterFor('alert').createBody(alert.after as never, ids)).toMatchObject({ pagerduty_severity: 'info', opsgenie_priority: 'P5' });
  });
});
