import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import type { ChannelGroupBy } from '../../../model/types.js';
import type { EvaluationUpdate } from '../evaluation-store.js';
import {
  CLOSE_BUDGET_MS,
  DUE_GROUPS_READ,
  buildGroupedMessage,
  dueGroupsSql,
  groupDeliveryAlertId,
  groupedEntries,
  memberDueAt,
  splitGroupedDeliveries,
  type GroupMemberRow,
} from '../../outbox/group-messages.js';
import { appendHistory } from './history-rows.js';
import { pendingByAccount } from './outbox-rows.js';
import { boundRoundMembers, type PendingDeliveryBound } from '../pending-bound.js';

/** Members taken into a message are kept this long (for the record), then pruned. */
const KEEP_SENT_MS = 24 * 3_600_000;

/**
 * Inside saveEvaluations: the deliveries of a round to channels that group by path nodes become members of their
 * groups (group_members), due when their group's message is (group-messages.ts). Answers the round without them.
 */
export function groupRoundDeliveries(db: Database, items: EvaluationUpdate[], bound: PendingDeliveryBound): EvaluationUpdate[] {
  const ids = [...new Set(items.flatMap((item) => item.deliveries.map((delivery) => delivery.channelId)))];
  if (ids.length === 0) return items;
  const rows = db
    .prepare('SELECT id, group_by FROM channels WHERE id IN (SELECT value FROM json_each(?)) AND group_by IS NOT NULL')
    .all(JSON.stringify(ids)) as { id: string; group_by: string }[];
  if (rows.length === 0) return items;
  const groupBy = new Map(rows.map((row) => [row.id, JSON.parse(row.group_by) as ChannelGroupBy]));
  const split = splitGroupedDeliveries(items, groupBy);
  if (split.members.length === 0) return split.items;
  // Waiting members count as pending deliveries: past the account's bound they are refused, as deliveries are.
  const owners = ownersOf(db, [...new Set(split.members.map((member) => member.alertId))]);
  const { items: rest, members } = boundRoundMembers(bound, split.items, split.members, owners, pendingByAccount(db, [...new Set(owners.values())]));
  const waiting = db.prepare('SELECT MIN(due_at) AS due FROM group_members WHERE channel_id = ? AND group_key = ? AND delivery_id IS NULL').pluck();
  const last = db.prepare('SELECT last_sent_at FROM delivery_groups WHERE channel_id = ? AND group_key = ?').pluck();
  const insert = db.prepare(
    `INSERT INTO group_members (account_id, channel_id, group_key, alert_id, alert_name, event, series, value, created_at, due_at)
     SELECT a.account_id, c.id, ?, a.id, a.name, ?, ?, ?, ?, ?
     FROM alerts a JOIN channels c ON c.id = ? AND c.account_id = a.account_id WHERE a.id = ?`,
  );
  const due = new Map<string, number>();
  for (const member of members) {
    const group = `${member.channelId}\u0000${member.key}`;
    let dueAt = due.get(group);
    if (dueAt === undefined) {
      const waitingDue = waiting.get(member.channelId, member.key) as number | null;
      const lastSent = (last.get(member.channelId, member.key) as number | undefined) ?? null;
      dueAt = memberDueAt(groupBy.get(member.channelId)!, member.createdAt, waitingDue, lastSent);
      due.set(group, dueAt);
    }
    insert.run(member.key, member.event, member.series, member.value, member.createdAt, dueAt, member.channelId, member.alertId);
  }
  return rest;
}

/** The alerts' accounts, by alert id. */
function ownersOf(db: Database, alertIds: readonly string[]): Map<string, string> {
  const rows = db.prepare('SELECT id, account_id FROM alerts WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(alertIds)) as { id: string; account_id: string }[];
  return new Map(rows.map((row) => [row.id, row.account_id]));
}


/**
 * Makes the one `grouped` delivery of every group whose message is due by `now`, one transaction per group (SQLite
 * has one writer: the members taken are marked with the message's id in the same transaction, so no second
 * closer takes them again). Each alert of a message gets a `grouped` history entry. Answers how many it made.
 */
export function closeDeliveryGroups(db: Database, now: number): number {
  const due = db.prepare(dueGroupsSql('?')).all(now, DUE_GROUPS_READ) as { channel_id: string; group_key: string }[];
  let made = 0;
  const started = performance.now();
  for (const group of due) {
    // The rest waits for the next call: the delivery worker claims (other tenants' pages too) after this returns.
    if (performance.now() - started >= CLOSE_BUDGET_MS) break;
    const close = db.transaction(() => {
      const channel = db.prepare('SELECT account_id, description, group_by FROM channels WHERE id = ?').get(group.channel_id) as
        | { account_id: string; description: string; group_by: string | null }
        | undefined;
      if (!channel) return false;
      const deliveryId = createId();
      const members = db
        .prepare(
          `UPDATE group_members SET delivery_id = ? WHERE channel_id = ? AND group_key = ? AND delivery_id IS NULL
           RETURNING seq, alert_id, alert_name, event, series, value, created_at`,
        )
        .all(deliveryId, group.channel_id, group.group_key) as GroupMemberRow[];
      if (members.length === 0) return false;
      const nodes = channel.group_by ? (JSON.parse(channel.group_by) as ChannelGroupBy).nodes : [];
      const message = buildGroupedMessage({ id: group.channel_id, description: channel.description, nodes }, group.group_key, members, now);
      db.prepare(
        `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, 'grouped', ?, ?, ?)`,
      ).run(deliveryId, channel.account_id, group.channel_id, groupDeliveryAlertId(group.group_key), message.alert.name, JSON.stringify(message), now, now);
      db.prepare(
        `INSERT INTO delivery_groups (channel_id, group_key, last_sent_at) VALUES (?, ?, ?)
         ON CONFLICT (channel_id, group_key) DO UPDATE SET last_sent_at = excluded.last_sent_at`,
      ).run(group.channel_id, group.group_key, now);
      appendHistory(db, groupedEntries(group.channel_id, channel.description, group.group_key, members, now));
      return true;
    });
    if (close()) made += 1;
  }
  if (made > 0) db.prepare('DELETE FROM group_members WHERE delivery_id IS NOT NULL AND created_at < ?').run(now - KEEP_SENT_MS);
  return made;
}
