import { describe, expect, it } from 'vitest';
import { MAX_HOLD_SERIES, holdDependents, parentStates } from '../../../../src/server/store/dependency-hold.js';
import type { EvaluationUpdate } from '../../../../src/server/store/evaluation-store.js';

const state = {
  version: 1, status: 'alerting', triggered: [], lastNotifiedAt: 100, alertingNotified: true, pagedChannels: ['c1'],
  queryFailing: false, queryFailureNotified: false, alertingSince: 100, noDataNotified: true,
  escalation: { alertingSince: 100, escalatedSteps: [5], heldSteps: [], escalatedChannels: ['boss'] },
};

/** A round's update of the child; a transition to alerting writes its `alerting` entries (an offer again after a hold does not). */
function update(events: { event: string; channels: string[]; series: string[] }[], offeredAgain = false): EvaluationUpdate {
  const notifications = events.map(({ event, series }) => ({ event, time: 100, alert: { metric: 'hosts.*.disk' }, triggered: series.map((metric) => ({ metric, value: 9 })) }));
  return {
    alertId: 'child', status: 'alerting', currentlyTriggeredMetrics: ['hosts.a.disk'], evalState: JSON.stringify(state),
    history: [
      ...events.filter(({ event }) => event === 'alerting' && !offeredAgain).flatMap(({ series }) => series.map((metric) => ({ status: 'alerting' as const, value: 9, metric, time: 100 }))),
      ...events.flatMap(({ event, channels, series }) => channels.map((channelId) => ({ status: 'notification_sent' as const, value: 9, metric: series[0] ?? '', time: 100, channelId, reason: event }))),
    ],
    deliveries: events.flatMap(({ event, channels }, i) => channels.map((channelId) => ({ channelId, event, payload: notifications[i], createdAt: 100_000 }))),
  };
}

describe('holding a child while its parent alerts', () => {
  const children = new Map([['child', [{ alert: 'ping', nodes: [1] }]]]);
  const alertingPing = parentStates([{ id: 'ping', name: 'ping', status: 'alerting', triggered: ['hosts.a.ping'] }], []);

  it('holds alerting, no_data and escalation pages, records why once per notification, and tells the state nothing went out', () => {
    const [held] = holdDependents(
      [update([{ event: 'alerting', channels: ['c1', 'c2'], series: ['hosts.a.disk'] }, { event: 'no_data', channels: ['c1'], series: [] }, { event: 'escalated', channels: ['boss'], series: ['hosts.a.disk'] }])],
      children,
      parentStates([{ id: 'ping', name: 'ping', status: 'alerting', triggered: ['hosts.a.ping'] }], []),
    );
    // no_data names no series: the alert's query, whose node 1 is `*`, matches no ping series: it goes out.
    expect(held!.deliveries.map((delivery) => delivery.event)).toEqual(['no_data']);
    expect(held!.history.map((entry) => [entry.status, 'reason' in entry ? entry.reason : null])).toEqual([
      ['alerting', null],
      ['notification_sent', 'no_data'],
      ['held', 'depends on ping, which is alerting'],
      ['held', 'depends on ping, which is alerting'],
    ]);
    const told = JSON.parse(held!.evalState!);
    expect([told.alertingNotified, told.pagedChannels, told.noDataNotified, told.escalation.escalatedChannels]).toEqual([false, undefined, true, []]);
  });

  it('holds quietly an alerting page offered again each cycle while the parent alerts (its hold was recorded once)', () => {
    const [again] = holdDependents([update([{ event: 'alerting', channels: ['c1'], series: ['hosts.a.disk'] }], true)], children, alertingPing);
    expect(again!.deliveries).toEqual([]);
    expect(again!.history).toEqual([]);
    expect(JSON.parse(again!.evalState!).alertingNotified).toBe(false);
  });

  it('lets through a page one of whose series no parent series holds, resolves always, and everything of a healthy parent', () => {
    const mixed = holdDependents([update([{ event: 'alerting', channels: ['c1'], series: ['hosts.a.disk', 'hosts.b.disk'] }])], children, alertingPing);
    expect(mixed[0]!.deliveries).toHaveLength(1);
    const resolve = holdDependents([update([{ event: 'recovered', channels: ['c1'], series: ['hosts.a.disk'] }])], children, alertingPing);
    expect(resolve[0]!.deliveries).toHaveLength(1);
    // The round's own update wins over the stored state: ping recovers in this very round.
    const recovering: EvaluationUpdate = { ...update([]), alertId: 'ping', status: 'healthy', currentlyTriggeredMetrics: [] };
    const healthy = parentStates([{ id: 'ping', name: 'ping', status: 'alerting', triggered: ['hosts.a.ping'] }], [recovering]);
    expect(holdDependents([update([{ event: 'alerting', channels: ['c1'], series: ['hosts.a.disk'] }])], children, healthy)[0]!.deliveries).toHaveLength(1);
  });

  it('reads at most MAX_HOLD_SERIES series of a parent and of a notification, and pages past that', () => {
    const many = (count: number, node: (j: number) => string) => Array.from({ length: count }, (_, j) => `hosts.${node(j)}.disk`);
    // A parent's series beyond the bound are not read: a child series only they would hold pages.
    const parent = parentStates([{ id: 'ping', name: 'ping', status: 'alerting', triggered: [...many(MAX_HOLD_SERIES, (j) => `p${j}`), 'hosts.late.ping'] }], []);
    expect(parent.get('ping')!.alerting).toHaveLength(MAX_HOLD_SERIES);
    expect(holdDependents([update([{ event: 'alerting', channels: ['c1'], series: ['hosts.late.disk'] }])], children, parent)[0]!.deliveries).toHaveLength(1);
    expect(holdDependents([update([{ event: 'alerting', channels: ['c1'], series: ['hosts.p7.disk'] }])], children, parent)[0]!.deliveries).toHaveLength(0);
    // A notification about more series than the bound is never held, even by a parent that holds every one of them.
    const everyHost = parentStates([{ id: 'ping', name: 'ping', status: 'alerting', triggered: many(MAX_HOLD_SERIES, (j) => `h${j}`) }], []);
    const within = holdDependents([update([{ event: 'alerting', channels: ['c1'], series: many(MAX_HOLD_SERIES, (j) => `h${j}`) }])], children, everyHost);
    expect(within[0]!.deliveries).toHaveLength(0);
    const past = holdDependents([update([{ event: 'alerting', channels: ['c1'], series: many(MAX_HOLD_SERIES + 1, (j) => `h${j % MAX_HOLD_SERIES}`) }])], children, everyHost);
    expect(past[0]!.deliveries).toHaveLength(1);
  });
});
