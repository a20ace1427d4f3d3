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
import type { PgDatabase, Queryable } from './pg-database.js';

/** Members taken into a message are kept this long (for the record), then pruned. */
const KEEP_SENT_MS = 24 * 3_600_000;

/**
 * Inside saveRound: the deliveries of a round to channels that group by path nodes become members of their groups
 * (group_members), due when their group's message is (group-messages.ts). Answers the round without them.
 */
export async function groupRoundDeliveries(tx: Queryable, items: EvaluationUpdate[], bound: PendingDeliveryBound): Promise<EvaluationUpdate[]> {
  const ids = [...new Set(items.flatMap((item) => item.deliveries.map((delivery) => delivery.channelId)))];
  if (ids.length === 0) return items;
  const rows = await tx.query<{ id: string; group_by: string }>('SELECT id, group_by FROM channels WHERE id = ANY($1) AND group_by IS NOT NULL', [ids]);
  if (rows.length === 0) return items;
  const groupBy = new Map(rows.map((row) => [row.id, JSON.parse(row.group_by) as ChannelGroupBy]));
  const split = splitGroupedDeliveries(items, groupBy);
  if (split.members.length === 0) return split.items;
  // Waiting members count as pending deliveries: past the account's bound they are refused, as deliveries are.
  const alertIds = [...new Set(split.members.map((member) => member.alertId))];
  const owners = new Map(
    (await tx.query<{ id: string; account_id: string }>('SELECT id, account_id FROM alerts WHERE id = ANY($1::text[])', [alertIds])).map((row) => [row.id, row.account_id]),
  );
  const pending = await pendingByAccount(tx, [...new Set(owners.values())]);
  const { items: rest, members } = boundRoundMembers(bound, split.items, split.members, owners, pending);
  if (members.length === 0) return rest;
  const due = new Map<string, number>();
  for (const member of members) {
    const group = `${member.channelId}\u0000${member.key}`;
    if (due.has(group)) continue;
    const [state] = await tx.query<{ waiting: string | null; last_sent_at: string | null }>(
      `SELECT (SELECT MIN(due_at) FROM group_members WHERE channel_id = $1 AND group_key = $2 AND delivery_id IS NULL) AS waiting,
              (SELECT last_sent_at FROM delivery_groups WHERE channel_id = $1 AND group_key = $2) AS last_sent_at`,
      [member.channelId, member.key],
    );
    const number = (value: string | null | undefined) => (value === null || value === undefined ? null : Number(value));
    due.set(group, memberDueAt(groupBy.get(member.channelId)!, member.createdAt, number(state?.waiting), number(state?.last_sent_at)));
  }
  await tx.query(
    `INSERT INTO group_members (account_id, channel_id, group_key, alert_id, alert_name, event, series, value, created_at, due_at)
     SELECT a.account_id, c.id, m.group_key, a.id, a.name, m.event, m.series, m.value, m.created_at, m.due_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::bigint[], $8::bigint[]) WITH ORDINALITY
       AS m(alert_id, channel_id, group_key, event, series, value, created_at, due_at, n)
     JOIN alerts a ON a.id = m.alert_id JOIN channels c ON c.id = m.channel_id AND c.account_id = a.account_id ORDER BY m.n`,
    [
      members.map((member) => member.alertId),
      members.map((member) => member.channelId),
      members.map((member) => member.key),
      members.map((member) => member.event),
      members.map((member) => member.series),
      members.map((member) => member.value),
      members.map((member) => member.createdAt),
      members.map((member) => due.get(`${member.channelId}\u0000${member.key}`)!),
    ],
  );
  return rest;
}

/**
 * Makes the one `grouped` delivery of every group whose message is due by `now`, one transaction per group: its
 * waiting members are taken with FOR UPDATE SKIP LOCKED and marked with the message's id in that transaction, so
 * two replicas (or workers) closing the same group at once never both take a member; the second finds none (or
 * only later ones) and makes nothing. Each alert of a message gets a `grouped` history entry. Answers how many.
 */
export async function closeDeliveryGroups(db: PgDatabase, now: number): Promise<number> {
  const due = await db.query<{ channel_id: string; group_key: string }>(dueGroupsSql('$'), [now, DUE_GROUPS_READ]);
  let made = 0;
  const started = performance.now();
  for (const group of due) {
    // The rest waits for the next call: the delivery worker claims (other tenants' pages too) after this returns.
    if (performance.now() - started >= CLOSE_BUDGET_MS) break;
    const closed = await db.transaction(async (tx) => {
      const [channel] = await tx.query<{ account_id: string; description: string; group_by: string | null }>('SELECT account_id, description, group_by FROM channels WHERE id = $1', [
        group.channel_id,
      ]);
      if (!channel) return false;
      const deliveryId = createId();
      const members = await tx.query<GroupMemberRow>(
        `UPDATE group_members SET delivery_id = $1 WHERE seq IN (
           SELECT seq FROM group_members WHERE channel_id = $2 AND group_key = $3 AND delivery_id IS NULL FOR UPDATE SKIP LOCKED)
         RETURNING seq, alert_id, alert_name, event, series, value, created_at`,
        [deliveryId, group.channel_id, group.group_key],
      );
      if (members.length === 0) return false;
      const rows = members.map((row) => ({ ...row, seq: Number(row.seq), created_at: Number(row.created_at) }));
      const nodes = channel.group_by ? (JSON.parse(channel.group_by) as ChannelGroupBy).nodes : [];
      const message = buildGroupedMessage({ id: group.channel_id, description: channel.description, nodes }, group.group_key, rows, now);
      await tx.query(
        `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $7, $4, 'grouped', $5, $6, $6)`,
        [deliveryId, channel.account_id, group.channel_id, message.alert.name, JSON.stringify(message), now, groupDeliveryAlertId(group.group_key)],
      );
      await tx.query(
        `INSERT INTO delivery_groups (channel_id, group_key, last_sent_at) VALUES ($1, $2, $3)
         ON CONFLICT (channel_id, group_key) DO UPDATE SET last_sent_at = EXCLUDED.last_sent_at`,
        [group.channel_id, group.group_key, now],
      );
      await appendHistory(tx, groupedEntries(group.channel_id, channel.description, group.group_key, rows, now));
      return true;
    });
    if (closed) made += 1;
  }
  if (made > 0) await db.query('DELETE FROM group_members WHERE delivery_id IS NOT NULL AND created_at < $1', [now - KEEP_SENT_MS]);
  return made;
}
