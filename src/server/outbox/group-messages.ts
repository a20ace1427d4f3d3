import { groupKey } from '../../evaluation/grouping.js';
import type { ChannelGroupBy } from '../../model/types.js';
import type { Notification } from '../../notifications/types.js';
import type { EvaluationUpdate } from '../store/evaluation-store.js';
import type { NewDelivery } from '../store/outbox.js';
import type { NewHistoryEntry } from '../store/store.js';
import { GROUP_BY_DEFAULTS } from '../../model/noise-control.js';

/**
 * Grouped delivery (pure; the stores' group-rows.ts keep the rows). A channel with `group_by` sends no notification
 * on its own: each triggered series of each notification becomes a member of its group (the series' path nodes at
 * `nodes`), stored in group_members, due `wait_seconds` after the group's first waiting member, or, when the group
 * had a message less than `interval_seconds` ago, when that interval ends. The delivery worker's closer turns the
 * due members of one (channel, group) into ONE `grouped` delivery in one transaction, so replicas and restarts send
 * each member once; resolves are members like any other.
 */

/** How many members a grouped message names; the rest are counted. */
export const GROUPED_LIST_LIMIT = 10;

/** The name a grouped message goes by in the outbox. */
export const GROUPED_NAME = 'grouped notifications';

/** A member to store: one series of one notification of one alert, for one channel's group. */
export interface NewGroupMember {
  alertId: string;
  channelId: string;
  key: string;
  event: string;
  series: string;
  value: number | null;
  createdAt: number;
}

/** A stored member as a grouped message lists it (times epoch ms). */
export interface GroupMemberRow {
  seq: number;
  alert_id: string;
  alert_name: string;
  event: string;
  series: string;
  value: number | null;
  created_at: number;
}

/**
 * Takes the deliveries to grouping channels out of a round: answers the round without them and their members (their
 * `notification_sent` history stays: they are sent, in their group's message).
 */
export function splitGroupedDeliveries(
  items: readonly EvaluationUpdate[],
  groupBy: ReadonlyMap<string, ChannelGroupBy>,
): { items: EvaluationUpdate[]; members: NewGroupMember[] } {
  if (groupBy.size === 0) return { items: [...items], members: [] };
  const members: NewGroupMember[] = [];
  const out = items.map((item) => {
    const grouped = item.deliveries.filter((delivery) => groupBy.has(delivery.channelId));
    if (grouped.length === 0) return item;
    for (const delivery of grouped) members.push(...membersOf(item.alertId, delivery, groupBy.get(delivery.channelId)!));
    return { ...item, deliveries: item.deliveries.filter((delivery) => !groupBy.has(delivery.channelId)) };
  });
  return { items: out, members };
}

/** One member per triggered series (a notification naming none, no data or a failure: one of the alert's query). */
function membersOf(alertId: string, delivery: NewDelivery, groupBy: ChannelGroupBy): NewGroupMember[] {
  const notification = delivery.payload as { triggered?: { metric: string; value: number | null }[]; alert?: { metric?: string } };
  const triggered = notification.triggered?.length ? notification.triggered : [{ metric: notification.alert?.metric ?? '', value: null }];
  return triggered.map((one) => ({
    alertId,
    channelId: delivery.channelId,
    key: groupKey(one.metric, groupBy.nodes),
    event: delivery.event,
    series: one.metric,
    value: one.value,
    createdAt: delivery.createdAt,
  }));
}

/**
 * When a new member's group message is due (epoch ms): with the group's waiting members, theirs (it joins them);
 * after a message less than interval_seconds ago, when that interval ends; otherwise wait_seconds from now.
 */
export function memberDueAt(groupBy: ChannelGroupBy, now: number, waitingDueAt: number | null, lastSentAt: number | null): number {
  if (waitingDueAt !== null) return waitingDueAt;
  const wait = (groupBy.wait_seconds ?? GROUP_BY_DEFAULTS.waitSeconds) * 1000;
  const interval = (groupBy.interval_seconds ?? GROUP_BY_DEFAULTS.intervalSeconds) * 1000;
  if (lastSentAt !== null && now < lastSentAt + interval) return Math.max(now + wait, lastSentAt + interval);
  return now + wait;
}

/**
 * The one `grouped` notification of a group's due members, in the order they were made: all counted, the first
 * GROUPED_LIST_LIMIT named. Shaped as a notification about a pseudo-alert (as a throttle's summary is) so that every
 * notifier formats it; its id is per channel, group and message.
 */
export function buildGroupedMessage(
  channel: { id: string; description: string; nodes: readonly number[] },
  key: string,
  rows: readonly GroupMemberRow[],
  nowMs: number,
): Notification {
  const ordered = [...rows].sort((a, b) => a.created_at - b.created_at || a.seq - b.seq);
  // The group's own id, stable over its messages (a receiver pairs a group's recovery with its page by it); the
  // series and values are the members' own: nothing here is an alert or a criterion that does not exist.
  const id = groupDeliveryAlertId(key);
  const triggered = ordered.slice(0, GROUPED_LIST_LIMIT).map((row) => ({ metric: row.series, value: row.value }));
  return {
    event: 'grouped',
    alert: {
      id,
      name: `${GROUPED_NAME}: ${key}`,
      metric: ordered[0]?.series ?? '',
      alert_criteria: { type: 'above' },
      additional_criteria: {},
      expression: 'a',
      info: null,
      notification_type: ['state_change'],
    },
    triggered,
    conditions: [],
    graphUrl: null,
    time: Math.floor(nowMs / 1000),
    grouped: {
      channel: channel.description,
      group_key: key,
      group_id: id,
      nodes: [...channel.nodes],
      count: ordered.length,
      members: ordered.slice(0, GROUPED_LIST_LIMIT).map((row) => ({
        alert_id: row.alert_id,
        alert_name: row.alert_name,
        series: row.series,
        event: row.event,
        value: row.value,
        time: Math.floor(row.created_at / 1000),
      })),
    },
  };
}

/**
 * The outbox's alert id of a group's messages, `group:dc1`: a channel's groups are sent side by side, and one
 * group's messages in order (the outbox sends a (channel, alert)'s rows one after the other).
 */
export function groupDeliveryAlertId(key: string): string {
  return `group:${key}`;
}

/** The history entry each alert of a grouped message gets: which message, how many of its own it carried. */
export function groupedReason(channel: string, key: string, total: number, own: number): string {
  return `in one message to ${channel} for ${key || '(no key)'}: ${own} of its notification${own === 1 ? '' : 's'} among ${total}`;
}

/** One `grouped` history entry per alert of a message (its first series, how many of its own the message carried). */
export function groupedEntries(channelId: string, description: string, key: string, members: readonly GroupMemberRow[], now: number): NewHistoryEntry[] {
  const byAlert = new Map<string, GroupMemberRow[]>();
  for (const member of members) {
    const list = byAlert.get(member.alert_id);
    if (list) list.push(member);
    else byAlert.set(member.alert_id, [member]);
  }
  return [...byAlert].map(([alertId, own]) => ({
    alertId,
    status: 'grouped',
    value: own[0]!.value,
    time: Math.floor(now / 1000),
    metric: own[0]!.series,
    channelId,
    reason: groupedReason(description, key, members.length, own.length),
  }));
}

/**
 * The SQL of the due groups (parameters: now in epoch ms, then how many; `marker` the backend's parameter style), taking turns across accounts: every account's longest-due group, then every account's second, and so on.
 * A tenant with thousands of groups due then delays another tenant's group by one turn, not by its backlog.
 */
export function dueGroupsSql(marker: '?' | '$'): string {
  const [now, limit] = marker === '?' ? ['?', '?'] : ['$1', '$2'];
  return `SELECT channel_id, group_key FROM (
      SELECT channel_id, group_key, MIN(due_at) AS due,
             ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY MIN(due_at), channel_id, group_key) AS turn
      FROM group_members WHERE delivery_id IS NULL GROUP BY account_id, channel_id, group_key HAVING MIN(due_at) <= ${now}
    ) due_groups ORDER BY turn, due LIMIT ${limit}`;
}

/** The most due groups one close reads. */
export const DUE_GROUPS_READ = 1_000;
/** How long one close may make messages before it leaves the rest for the next (the worker claims after it). */
export const CLOSE_BUDGET_MS = 50;
