import { describe, expect, it } from 'vitest';
import type { EvaluationUpdate, NotificationRecord } from '../../../../src/server/store/evaluation-store.js';
import { OUTBOX_FULL, PendingDeliveryBound } from '../../../../src/server/store/pending-bound.js';

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
});
