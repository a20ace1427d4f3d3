import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { computePlan } from '../../../src/plan/compute.js';
import type { PlanChange, UpdateChange } from '../../../src/plan/types.js';
import { alertRead, channelRead, definitionsOf, NOW, scheduleRead, stateOf } from './fixtures.js';

const ALERT = `
alerts:
  - name: cpu
    metric: a.b.c
    alert_criteria: {type: above, above_value: 1}
`;

function only<A extends PlanChange['action']>(changes: PlanChange[], action: A): Extract<PlanChange, { action: A }> {
  const found = changes.filter((c) => c.action === action);
  expect(found).toHaveLength(1);
  return found[0] as Extract<PlanChange, { action: A }>;
}

describe('computePlan', () => {
  it('plans a create for an alert the server does not have', () => {
    const plan = computePlan(definitionsOf(ALERT), stateOf(), NOW);
    const create = only(plan.changes, 'create');
    expect(create).toMatchObject({ kind: 'alert', key: 'cpu', after: { notification_channels: ['Email me'], notification_type: ['every', 60], expression: 'a', on_query_failure: null } });
    expect(plan.summary).toMatchObject({ create: 1, update: 0, delete: 0, noOp: 0 });
  });

  it('plans nothing when the server holds the same alert with its defaults filled in', () => {
    const plan = computePlan(definitionsOf(ALERT), stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', info: '' })] }), NOW);
    expect(plan.changes).toEqual([]);
    expect(plan.summary.noOp).toBe(1);
  });

  it.each([
    ['metric', { metric: 'x.y.z' }, { path: 'metric', before: 'a.b.c', after: 'x.y.z' }],
    ['above_value', { alert_criteria: { type: 'above', above_value: 5 } }, { path: 'alert_criteria.above_value', before: 1, after: 5 }],
    ['time_period', { alert_criteria: { type: 'above', above_value: 1, time_period: 5 } }, { path: 'alert_criteria.time_period', after: 5 }],
    ['criteria type', { alert_criteria: { type: 'below', below_value: 1 } }, { path: 'alert_criteria.type', before: 'above', after: 'below' }],
    ['info', { info: 'runbook' }, { path: 'info', before: '', after: 'runbook' }],
    ['notification_type', { notification_type: 'state_change' }, { path: 'notification_type', before: ['every', 60], after: ['state_change'] }],
    ['notification_channels', { notification_channels: ['pager'] }, { path: 'notification_channels', before: ['Email me'], after: ['pager'] }],
    ['scheduled_mutes', { scheduled_mutes: ['nightly'] }, { path: 'scheduled_mutes', before: [], after: ['nightly'] }],
    ['expression', { additional_criteria: { b: { type: 'missing', time_period: 5, metric: 'q' } }, expression: 'a || b' }, { path: 'expression', before: 'a', after: 'a || b' }],
    ['additional criteria', { additional_criteria: { b: { type: 'missing', time_period: 5, metric: 'q' } }, expression: 'a || b' }, { path: 'additional_criteria.b', after: { type: 'missing', time_period: 5, metric: 'q' } }],
    ['on_query_failure', { metric: 'sumSeries(a.*)', on_query_failure: 'ignore' }, { path: 'on_query_failure', before: null, after: 'ignore' }],
  ])('plans an update of %s with its field diff', (_name, fields, diff) => {
    const alert = { name: 'cpu', metric: 'a.b.c', alert_criteria: { type: 'above', above_value: 1 }, ...fields };
    const defs = definitionsOf(stringify({ alerts: [alert] }));
    const state = stateOf({
      channels: [channelRead({ id: 'ch-p', description: 'pager', type: 'pagerduty', destination: 'k' })],
      schedules: [scheduleRead({ id: 's1', name: 'nightly' })],
      alerts: [alertRead({ id: 'a1', name: 'cpu', metric: alert.metric === 'x.y.z' ? 'a.b.c' : alert.metric })],
    });
    const plan = computePlan(defs, state, NOW);
    const update = only(plan.changes, 'update');
    expect(update.diffs).toContainEqual(diff);
    expect(update.remoteId).toBe('a1');
  });

  it('reads additional criteria keys and expression letters in any case as the same composite', () => {
    const defs = definitionsOf(`
alerts:
  - name: combo
    metric: a.b.c
    alert_criteria: {type: above, above_value: 1, time_period: ""}
    additional_criteria:
      B: {type: below, below_value: 2, metric: x.y, time_period: null}
    expression: "A&&(b)"
    notification_type: [state_change]
`);
    const read = alertRead({ id: 'a1', name: 'combo', additional_criteria: { b: { type: 'below', below_value: 2, metric: 'x.y' } }, expression: 'a && b', notification_type: 'state_change' as never, info: null });
    expect(computePlan(defs, stateOf({ alerts: [read] }), NOW).changes).toEqual([]);
  });

  it('fills on_query_failure by the function rule: notify for a function query, nothing otherwise', () => {
    const defs = definitionsOf(`
alerts:
  - {name: f, metric: "sumSeries(a.*)", alert_criteria: {type: above, above_value: 1}}
  - {name: p, metric: "a.*", alert_criteria: {type: above, above_value: 1}}
`);
    const plan = computePlan(defs, stateOf({ alerts: [alertRead({ id: '1', name: 'f', metric: 'sumSeries(a.*)', on_query_failure: 'notify' }), alertRead({ id: '2', name: 'p', metric: 'a.*' })] }), NOW);
    expect(plan.changes).toEqual([]);
  });

  it('accepts channel ids in definitions and compares them by name', () => {
    const defs = definitionsOf(`${ALERT}    notification_channels: [ch-p, Email me]\n`);
    const state = stateOf({ channels: [channelRead({ id: 'ch-p', description: 'pager' })], alerts: [alertRead({ id: 'a1', name: 'cpu', notification_channels: ['ch-email', 'ch-p'] })] });
    expect(computePlan(defs, state, NOW).changes).toEqual([]);
  });

  it('reports a reference found neither in the files nor on the server, at its place', () => {
    const plan = computePlan(definitionsOf(`${ALERT}    notification_channels: [nowhere]\n`), stateOf(), NOW);
    expect(plan.problems).toHaveLength(1);
    expect(plan.problems[0]).toMatchObject({ path: 'alerts.0.notification_channels.0', location: { file: 'defs.yaml', line: 6 } });
    expect(plan.problems[0]!.message).toContain('no channel "nowhere"');
  });

  it('treats timezone spellings and repeat order of a schedule as the same', () => {
    const defs = definitionsOf(`
schedules:
  - {name: nightly, start_time: "02:00", duration: 60, timezone: "UTC+02:00", repeat: [fri, mon]}
`);
    const state = stateOf({ schedules: [scheduleRead({ id: 's', name: 'nightly', timezone: 'UTC+2', repeat: ['mon', 'fri'] })] });
    expect(computePlan(defs, state, NOW).changes).toEqual([]);
  });

  it('fills auto_resolve false for channels and masks secret destinations', () => {
    const defs = definitionsOf(`
channels:
  - {description: pager, type: pagerduty, destination: key-1}
`);
    const state = stateOf({ channels: [channelRead({ id: 'p', description: 'pager', type: 'pagerduty', destination: 'key-0' })] });
    const update = only(computePlan(defs, state, NOW).changes, 'update') as UpdateChange;
    expect(update.diffs).toEqual([{ path: 'destination', before: 'key-0', after: 'key-1' }]);
    expect(update.sensitive).toContain('destination');
  });

  it('marks values from the environment sensitive', () => {
    const defs = definitionsOf(`
channels:
  - {description: mail, type: email, destination: "\${MAIL_TO}"}
`, { MAIL_TO: 'secret@example.com' });
    const create = only(computePlan(defs, stateOf(), NOW).changes, 'create');
    expect(create.sensitive).toEqual(['destination']);
  });

  it('orders creates of schedules and channels before the alerts that use them, with dependencies', () => {
    const defs = definitionsOf(`
alerts:
  - {name: cpu, metric: a, alert_criteria: {type: above, above_value: 1}, notification_channels: [pager], scheduled_mutes: [nightly]}
channels:
  - {description: pager, type: pagerduty, destination: k}
schedules:
  - {name: nightly, start_time: "02:00", duration: 30}
`);
    const plan = computePlan(defs, stateOf(), NOW);
    expect(plan.changes.map((c) => c.id)).toEqual(['schedule:nightly:create', 'channel:pager:create', 'alert:cpu:create']);
    expect(plan.changes[2]!.dependsOn.sort()).toEqual(['channel:pager:create', 'schedule:nightly:create']);
  });

  it('deletes with prune only what matches a glob, alerts before the channels they used', () => {
    const state = stateOf({
      channels: [channelRead({ id: 'c1', description: 'team-old' }), channelRead({ id: 'c2', description: 'other' })],
      alerts: [alertRead({ id: 'a1', name: 'team-cpu', notification_channels: ['c1'] }), alertRead({ id: 'a2', name: 'theirs' })],
    });
    const plan = computePlan(definitionsOf('alerts: []'), state, NOW, { prune: { match: ['team-*'], max_deletes: 10 } });
    expect(plan.changes.map((c) => c.id)).toEqual(['alert:team-cpu:delete', 'channel:team-old:delete']);
    expect(plan.changes[1]!.dependsOn).toEqual(['alert:team-cpu:delete']);
    expect(plan.unmanaged.map((u) => u.key).sort()).toEqual(['other', 'theirs']);
    expect(plan.summary.unmanaged).toBe(2);
  });

  it('never deletes without prune, and counts what it does not manage', () => {
    const plan = computePlan(definitionsOf('alerts: []'), stateOf({ alerts: [alertRead({ id: 'a1', name: 'x' })] }), NOW);
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unmanaged).toBe(1);
  });

  it("leaves the account's built-in Email me channel out of what it does not manage, alone on a fresh server", () => {
    const plan = computePlan(definitionsOf('alerts: []'), stateOf({}), NOW);
    expect(plan.unmanaged).toEqual([]);
    expect(plan.summary.unmanaged).toBe(0);
    // An alert may still name it.
    const using = computePlan(definitionsOf(`${ALERT}    notification_channels: [Email me]\n`), stateOf({}), NOW);
    expect(using.problems).toEqual([]);
  });

  it('refuses to delete a channel that a remaining alert still uses', () => {
    const state = stateOf({ channels: [channelRead({ id: 'c1', description: 'team-mail' })], alerts: [alertRead({ id: 'a1', name: 'kept', notification_channels: ['c1'] })] });
    const plan = computePlan(definitionsOf('alerts: []'), state, NOW, { prune: { match: ['team-*'], max_deletes: 10 } });
    expect(plan.changes).toEqual([]);
    expect(plan.problems[0]!.message).toContain('refusing to delete channel "team-mail": still used by alert "kept"');
  });

  it('refuses more deletions than max_deletes unless allowed', () => {
    const state = stateOf({ alerts: [1, 2, 3].map((n) => alertRead({ id: `a${n}`, name: `t-${n}` })) });
    const prune = { match: ['t-*'], max_deletes: 2 };
    expect(computePlan(definitionsOf('alerts: []'), state, NOW, { prune }).problems[0]!.message).toContain('--allow-deletes 3');
    expect(computePlan(definitionsOf('alerts: []'), state, NOW, { prune, allowDeletes: 3 }).problems).toEqual([]);
  });

  it('mutes until a future time, and leaves a mute alone when the remaining minutes agree', () => {
    const defs = definitionsOf(`${ALERT}    muted: {until: "2026-03-01T14:00:00Z"}\n`);
    const plan = computePlan(defs, stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', info: '' })] }), NOW);
    expect(only(plan.changes, 'mute')).toMatchObject({ minutes: 120, until: '2026-03-01T14:00:00.000Z', remoteId: 'a1' });
    const muted = stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', muted: true })], muteStatus: { a1: { id: 'a1', name: 'cpu', muted: true, duration: 121, scheduled_mutes: [] } } });
    expect(computePlan(defs, muted, NOW).changes).toEqual([]);
    const drifted = stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', muted: true })], muteStatus: { a1: { id: 'a1', name: 'cpu', muted: true, duration: 30, scheduled_mutes: [] } } });
    expect(only(computePlan(defs, drifted, NOW).changes, 'mute').remainingBefore).toBe(30);
  });

  it('unmutes for muted: false and for an until in the past, and ignores mutes when muted is absent', () => {
    const state = stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', muted: true })] });
    expect(only(computePlan(definitionsOf(`${ALERT}    muted: false\n`), state, NOW).changes, 'unmute').remoteId).toBe('a1');
    expect(only(computePlan(definitionsOf(`${ALERT}    muted: {until: "2026-03-01T11:00:00Z"}\n`), state, NOW).changes, 'unmute')).toBeTruthy();
    expect(computePlan(definitionsOf(ALERT), state, NOW).changes).toEqual([]);
  });

  it('mutes a new alert after creating it', () => {
    const plan = computePlan(definitionsOf(`${ALERT}    muted: {until: "2026-03-01T13:00:00Z"}\n`), stateOf(), NOW);
    expect(only(plan.changes, 'mute').dependsOn).toEqual(['alert:cpu:create']);
  });

  it('warns when a change touches an alert that is alerting now', () => {
    const state = stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', metric: 'old', status: 'alerting' })] });
    expect(computePlan(definitionsOf(ALERT), state, NOW).warnings).toEqual(['alert "cpu" is alerting now; this update touches it']);
  });

  it('does not compare fields a hosted list read left out', () => {
    const read = alertRead({ id: 'a1', name: 'cpu' });
    delete read.metric;
    delete read.expression;
    delete read.additional_criteria;
    expect(computePlan(definitionsOf(ALERT), stateOf({ alerts: [read] }), NOW).changes).toEqual([]);
  });

  it('neither prunes nor counts as unmanaged a second server alert of a defined name', () => {
    const state = stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', info: '' }), alertRead({ id: 'a2', name: 'cpu', info: '' }), alertRead({ id: 'a3', name: 'other', info: '' })] });
    const plan = computePlan(definitionsOf(ALERT), state, NOW, { prune: { match: ['*'], max_deletes: 10 } });
    expect(plan.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['delete other']);
    expect(plan.summary).toMatchObject({ noOp: 1, unmanaged: 0 });
  });
});
