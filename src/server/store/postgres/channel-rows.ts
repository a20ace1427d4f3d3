import { createId } from '../../ids.js';
import { DEFAULT_CHANNEL } from '../../../model/defaults.js';
import type { ChannelQuery, ChannelRecord, ChannelWrite, Page, SigningRotation } from '../store.js';
import { channelFromRow, groupByColumn, templateColumn, throttleText, type ChannelRow } from '../row-mappers.js';
import { withoutEscalationChannel } from '../escalation-column.js';
import type { PgDatabase } from './pg-database.js';
import { SqlBuilder, unique } from './sql.js';

/** The columns of a ChannelRow. */
export const CHANNEL_COLUMNS = 'id, account_id, type, description, destination, auto_resolve, last_error, throttle, template, group_by';

/** ChannelStore.createChannel on PostgreSQL: UniqueViolation when the account has a channel of that description. */
export async function createChannel(db: PgDatabase, accountId: string, channel: ChannelWrite): Promise<ChannelRecord> {
  const [row] = await unique('description', channel.description, () =>
    db.query<ChannelRow>(
      `INSERT INTO channels (id, account_id, type, description, destination, auto_resolve, throttle, template, group_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${CHANNEL_COLUMNS}`,
      [createId(), accountId, channel.type, channel.description, channel.destination, channel.autoResolve, throttleText(channel), templateColumn(channel), groupByColumn(channel)],
    ),
  );
  return channelFromRow(row!);
}

export async function getChannel(db: PgDatabase, accountId: string, id: string): Promise<ChannelRecord | null> {
  const [row] = await db.query<ChannelRow>(`SELECT ${CHANNEL_COLUMNS} FROM channels WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return row ? channelFromRow(row) : null;
}

/** The account's channels whose id or description is one of `refs`, oldest first. */
export async function findChannelsByRefs(db: PgDatabase, accountId: string, refs: string[]): Promise<ChannelRecord[]> {
  const rows = await db.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE account_id = $1 AND (id = ANY($2) OR description = ANY($2)) ORDER BY seq`,
    [accountId, refs],
  );
  return rows.map(channelFromRow);
}

export async function updateChannel(db: PgDatabase, accountId: string, id: string, channel: ChannelWrite): Promise<ChannelRecord | null> {
  const [row] = await unique('description', channel.description, () =>
    db.query<ChannelRow>(
      `UPDATE channels SET type = $1, description = $2, destination = $3, auto_resolve = $4, throttle = $7, template = $8, group_by = $9
       WHERE account_id = $5 AND id = $6 RETURNING ${CHANNEL_COLUMNS}`,
      [channel.type, channel.description, channel.destination, channel.autoResolve, accountId, id, throttleText(channel), templateColumn(channel), groupByColumn(channel)],
    ),
  );
  return row ? channelFromRow(row) : null;
}

/** ChannelStore.deleteChannel: the channel leaves its alerts and their escalations; an alert left with none gets Email me. */
export async function deleteChannel(db: PgDatabase, accountId: string, id: string): Promise<{ alertsChanged: number } | null> {
  return db.transaction(async (tx) => {
    // FOR UPDATE waits for (and then blocks) writes that link an alert to this channel, so no link is added
    // between reading the users and deleting the channel.
    const found = await tx.query('SELECT id FROM channels WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
    if (found.length === 0) return null;
    const users = (await tx.query<{ alert_id: string }>('SELECT alert_id FROM alert_channels WHERE channel_id = $1', [id])).map((row) => row.alert_id);
    await tx.query('DELETE FROM channels WHERE id = $1', [id]);
    // Escalation steps name channels inside a JSON column: the deleted one leaves them (a step left empty goes).
    const escalating = await tx.query<{ id: string; escalation: string }>(
      `SELECT id, escalation FROM alerts WHERE account_id = $1 AND strpos(escalation, $2) > 0 FOR UPDATE`,
      [accountId, JSON.stringify(id)],
    );
    for (const row of escalating) {
      await tx.query('UPDATE alerts SET escalation = $1 WHERE id = $2', [withoutEscalationChannel(row.escalation, id), row.id]);
    }
    // An alert left without any channel falls back to the account's default, as on create.
    if (users.length > 0) {
      await tx.query(
        `INSERT INTO alert_channels (alert_id, channel_id, position)
         SELECT u.alert_id, c.id, 0 FROM unnest($1::text[]) AS u(alert_id)
         JOIN channels c ON c.account_id = $2 AND c.description = $3
         WHERE NOT EXISTS (SELECT 1 FROM alert_channels WHERE alert_id = u.alert_id)`,
        [users, accountId, DEFAULT_CHANNEL],
      );
    }
    return { alertsChanged: users.length };
  });
}

/** ChannelStore.searchChannels: the given filters ORed, oldest first, one page. */
export async function searchChannels(db: PgDatabase, accountId: string, query: ChannelQuery): Promise<Page<ChannelRecord>> {
  const sql = new SqlBuilder([accountId]);
  const either: string[] = [];
  if (query.types.length) either.push(`type = ANY(${sql.param(query.types)})`);
  if (query.descriptions.length) either.push(`description = ANY(${sql.param(query.descriptions)})`);
  if (query.ids.length) either.push(`id = ANY(${sql.param(query.ids)})`);
  if (query.autoResolve !== null) {
    either.push(`(type IN ('pagerduty', 'victorops') AND auto_resolve = ${sql.param(query.autoResolve)})`);
  }
  const rows = await db.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE account_id = $1${either.length ? ` AND (${either.join(' OR ')})` : ''}
     ORDER BY seq LIMIT ${sql.param(query.max + 1)} OFFSET ${sql.param((query.page - 1) * query.max)}`,
    sql.params,
  );
  return { items: rows.slice(0, query.max).map(channelFromRow), nextPage: rows.length > query.max };
}

/** ChannelStore.countEmailChannelsInUse on PostgreSQL. */
export async function countEmailChannelsInUse(db: PgDatabase): Promise<number> {
  const [row] = await db.query<{ count: string }>(
    `SELECT COUNT(*) AS count FROM channels WHERE type = 'email' AND destination <> ''
     AND EXISTS (SELECT 1 FROM alert_channels WHERE alert_channels.channel_id = channels.id)`,
  );
  return Number(row?.count ?? 0);
}

/** A channel_signing row; absent for a channel never rotated. */
interface SigningRow {
  generation: number;
  previous_generation: number | null;
  previous_expires_at: string | number | null;
}

function rotationFromRow(row: SigningRow | undefined): SigningRotation {
  if (!row) return { generation: 0, previous: null };
  const previous = row.previous_generation === null || row.previous_expires_at === null ? null : { generation: row.previous_generation, expiresAt: Number(row.previous_expires_at) };
  return { generation: row.generation, previous };
}

/** ChannelStore.getSigningRotation: generation 0 and no previous one for a channel never rotated. */
export async function getSigningRotation(db: PgDatabase, channelId: string): Promise<SigningRotation> {
  const [row] = await db.query<SigningRow>('SELECT generation, previous_generation, previous_expires_at FROM channel_signing WHERE channel_id = $1', [channelId]);
  return rotationFromRow(row);
}

/** ChannelStore.rotateSigningSecret: one statement, so two rotations at once move two generations, never one twice. */
export async function rotateSigningSecret(db: PgDatabase, accountId: string, channelId: string, previousExpiresAt: number): Promise<SigningRotation | null> {
  const [row] = await db.query<SigningRow>(
    `INSERT INTO channel_signing (channel_id, generation, previous_generation, previous_expires_at)
     SELECT id, 1, 0, $1 FROM channels WHERE account_id = $2 AND id = $3
     ON CONFLICT (channel_id) DO UPDATE SET previous_generation = channel_signing.generation,
       generation = channel_signing.generation + 1, previous_expires_at = excluded.previous_expires_at
     RETURNING generation, previous_generation, previous_expires_at`,
    [previousExpiresAt, accountId, channelId],
  );
  return row ? rotationFromRow(row) : null;
}
