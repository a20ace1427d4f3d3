import { buildWebhookPayload } from '../../../../src/server/notifiers/webhook.js';
import { describe, expect, it } from 'vitest';
import { buildGroupedMessage, memberDueAt, splitGroupedDeliveries } from '../../../../src/server/outbox/group-messages.js';
import type { EvaluationUpdate } from '../../../../src/server/store/evaluation-store.js';

describe('grouped delivery', () => {
  it("takes a grouping channel's deliveries out of the round, one member per series in its group", () => {
    const payload = { triggered: [{ metric: 'servers.dc1.web1.cpu', value: 95 }, { metric: 'servers.dc2.web1.cpu', value: 97 }] };
    const round: EvaluationUpdate[] = [{
      alertId: 'a', status: 'alerting', currentlyTriggeredMetrics: [], evalState: null, history: [],
      deliveries: [{ channelId: 'grouping', event: 'alerting', payload, createdAt: 1 }, { channelId: 'plain', event: 'alerting', payload, createdAt: 1 }],
    }];
    const { items, members } = splitGroupedDeliveries(round, new Map([['grouping', { nodes: [1] }]]));
    expect(items[0]!.deliveries.map((delivery) => delivery.channelId)).toEqual(['plain']);
    expect(members.map((member) => [member.key, member.series, member.value])).toEqual([
      ['dc1', 'servers.dc1.web1.cpu', 95],
      ['dc2', 'servers.dc2.web1.cpu', 97],
    ]);
  });

  it('is due after the wait, joins waiting members, and waits out the interval after a message', () => {
    const groupBy = { nodes: [1], wait_seconds: 2, interval_seconds: 30 };
    expect(memberDueAt(groupBy, 10_000, null, null)).toBe(12_000);
    expect(memberDueAt(groupBy, 10_000, 11_000, null)).toBe(11_000);
    expect(memberDueAt(groupBy, 10_000, null, 5_000)).toBe(35_000);
    expect(memberDueAt(groupBy, 40_000, null, 5_000)).toBe(42_000);
    expect(memberDueAt({ nodes: [1] }, 0, null, null)).toBe(5_000);
  });

  it('counts every member and names the first 10, oldest first', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ seq: 12 - i, alert_id: `a${i}`, alert_name: `alert ${i}`, event: 'alerting', series: `s.dc1.h${i}`, value: i, created_at: 1_000 + i }));
    const message = buildGroupedMessage({ id: 'c', description: 'dc hook', nodes: [1] }, 'dc1', rows, 60_000);
    expect(message.event).toBe('grouped');
    expect(message.grouped!.count).toBe(12);
    // The group's own stable id (the outbox's alert id of the group), its nodes, and its members' series and values.
    expect([message.alert.id, message.grouped!.group_id, message.grouped!.nodes]).toEqual(['group:dc1', 'group:dc1', [1]]);
    expect(buildGroupedMessage({ id: 'c', description: 'dc hook', nodes: [1] }, 'dc1', rows, 90_000).alert.id).toBe('group:dc1');
    expect(message.triggered.slice(0, 2)).toEqual([{ metric: 's.dc1.h0', value: 0 }, { metric: 's.dc1.h1', value: 1 }]);
    const body = buildWebhookPayload(message);
    expect(body).toMatchObject({ alert_id: 'group:dc1', event: 'grouped', metric: 's.dc1.h0', value: 0, graph: null, thresholds: { above: null, below: null } });
    expect(body.criteria).toBe('group dc1 of dc hook: 12 notifications');
    expect(message.grouped!.members.map((member) => member.alert_name)).toEqual(rows.slice(0, 10).map((row) => row.alert_name));
  });
});
