import { describe, expect, it } from 'vitest';
import type { EvaluationUpdate, NotificationRecord } from '../../../../src/server/store/evaluation-store.js';
import { OUTBOX_FULL, PendingDeliveryBound, boundRoundMembers } from '../../../../src/server/store/pending-bound.js';

/** An alerting update of `alertId` notifying each of `channels`, with its notification_sent entries. */
function update(alertId: string, channels: string[]): EvaluationUpdate {
  return {
    alertId,
    status: 'alerting',
    currentlyTriggeredMetrics: ['m'],
    evalState: null,
    history: [
      { status: 'alerting', value: 5, metric: 'm', time: 100 },
      ...channels.map((channelId) => ({ status: 'notification_sent' as const, value: 5, metric: 'm', time: 100, channelId, reason: 'alerting' })),
    ],
    deliveries: channels.map((channelId) => ({ channelId, event: 'alerting', payload: {}, createdAt: 1 })),
  };
}

describe('PendingDeliveryBound', () => {
  it("refuses a round's deliveries past each account's room, in order, saying why in history", () => {
    const bound = new PendingDeliveryBound();
    bound.limit = 5;
    const round = [update('a1', ['c1', 'c2', 'c3']), update('a2', ['c1', 'c2', 'c3']), update('b1', ['d1'])];
    const accounts = new Map([['a1', 'A'], ['a2', 'A'], ['b1', 'B']]);
    const out = bound.applyToRound(round, accounts, new Map([['A', 1], ['B', 4]]));
    // A had room for 4: a1's 3, then 1 of a2's. B had room for 1.
    expect(out.map((item) => item.deliveries.map((d) => d.channelId))).toEqual([['c1', 'c2', 'c3'], ['c1'], ['d1']]);
    expect(out[0]).toBe(round[0]);
    const a2 = out[1]!.history.filter((entry): entry is NotificationRecord => entry.status === 'notification_suppressed');
    expect(a2.map((entry) => [entry.channelId, entry.reason])).toEqual([
      ['c2', 'alerting: outbox full: the account has 5 deliveries pending, its limit'],
      ['c3', 'alerting: outbox full: the account has 5 deliveries pending, its limit'],
    ]);
    expect(bound.refused.get(OUTBOX_FULL)).toBe(2);
  });

  it('admits what fits of an acknowledgement and counts the rest', () => {
    const bound = new PendingDeliveryBound();
    bound.limit = 10;
    expect(bound.admit(8, 5)).toBe(2);
    expect(bound.admit(12, 5)).toBe(0);
    expect(bound.admit(0, 5)).toBe(5);
    expect(bound.refused.get(OUTBOX_FULL)).toBe(8);
  });

  it('counts group members against the same room, refusing the rest with the same reason and counter', () => {
    const bound = new PendingDeliveryBound();
    bound.limit = 4;
    // a1 notifies a grouping channel g about 3 series, a2 about 2, b1 (another account) about 1.
    const round = [update('a1', ['g']), update('a2', ['g']), update('b1', ['g'])];
    const member = (alertId: string, n: number) => ({ alertId, channelId: 'g', event: 'alerting', series: `s${n}`, createdAt: 200_000 });
    const members = [member('a1', 1), member('a1', 2), member('a1', 3), member('a2', 1), member('a2', 2), member('b1', 1)];
    const accounts = new Map([['a1', 'A'], ['a2', 'A'], ['b1', 'B']]);
    // A has 2 pending already: room for 2 members. B has room for all.
    const out = boundRoundMembers(bound, round, members, accounts, new Map([['A', 2]]));
    expect(out.members.map((one) => `${one.alertId}/${one.series}`)).toEqual(['a1/s1', 'a1/s2', 'b1/s1']);
    const suppressed = (i: number) => out.items[i]!.history.filter((entry): entry is NotificationRecord => entry.status === 'notification_suppressed').map((entry) => entry.reason);
    // a1: some of its series went in: its notification_sent stays, and one entry says how many did not.
    expect(out.items[0]!.history.some((entry) => entry.status === 'notification_sent')).toBe(true);
    expect(suppressed(0)).toEqual(['alerting: outbox full: the account has 4 deliveries pending, its limit (1 of 3 series not grouped)']);
    // a2: none did: its notification_sent becomes the refusal.
    expect(out.items[1]!.history.some((entry) => entry.status === 'notification_sent')).toBe(false);
    expect(suppressed(1)).toEqual(['alerting: outbox full: the account has 4 deliveries pending, its limit']);
    expect(out.items[2]).toBe(round[2]);
    expect(bound.refused.get(OUTBOX_FULL)).toBe(3);
  });
});
