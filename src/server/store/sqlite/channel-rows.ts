import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import { AUTO_RESOLVE_TYPES, DEFAULT_CHANNEL } from '../../../model/defaults.js';
import type { ChannelQuery, ChannelRecord, ChannelWrite, Page, SigningRotation } from '../store.js';
import { channelFromRow, groupByColumn, templateColumn, throttleText, type ChannelRow } from '../row-mappers.js';
import { withoutEscalationChannel } from '../escalation-column.js';
import { json, unique } from './sql.js';

/** ChannelStore.createChannel on SQLite: UniqueViolation when the account has a channel of that description. */
export function createChannel(db: Database, accountId: string, channel: ChannelWrite): ChannelRecord {
  const id = createId();
  unique('description', channel.description, () =>
    db
      .prepare(
        `INSERT INTO channels (id, account_id, type, description, destination, auto_resolve, throttle, template, group_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, accountId, channel.type, channel.description, channel.destination, channel.autoResolve ? 1 : 0, throttleText(channel), templateColumn(channel), groupByColumn(channel)),
  );
  return getChannel(db, accountId, id)!;
}

export function getChannel(db: Database, accountId: string, id: string): ChannelRecord | null {
  const row = db.prepare('SELECT * FROM channels WHERE account_id = ? AND id = ?').get(accountId, id) as ChannelRow | undefined;
  return row ? channelFromRow(row) : null;
}

/** The account's channels whose id or description is one of `refs`, oldest first. */
export function findChannelsByRefs(db: Database, accountId: string, refs: string[]): ChannelRecord[] {
  const rows = db
    .prepare(
      `SELECT * FROM channels WHERE account_id = ?
       AND (id IN (SELECT value FROM json_each(?)) OR description IN (SELECT value FROM json_each(?)))
       ORDER BY seq`,
    )
    .all(accountId, json(refs), json(refs)) as ChannelRow[];
  return rows.map(channelFromRow);
}

export function updateChannel(db: Database, accountId: string, id: string, channel: ChannelWrite): ChannelRecord | null {
  const result = unique('description', channel.description, () =>
    db
      .prepare(
        `UPDATE channels SET type = ?, description = ?, destination = ?, auto_resolve = ?, throttle = ?, template = ?, group_by = ?
         WHERE account_id = ? AND id = ?`,
      )
      .run(channel.type, channel.description, channel.destination, channel.autoResolve ? 1 : 0, throttleText(channel), templateColumn(channel), groupByColumn(channel), accountId, id),
  );
  return result.changes > 0 ? getChannel(db, accountId, id) : null;
}

/** ChannelStore.deleteChannel: the channel leaves its alerts and their escalations; an alert left with none gets Email me. */
export function deleteChannel(db: Database, accountId: string, id: string): { alertsChanged: number } | null {
  return db.transaction(() => {
    const users = db.prepare('SELECT alert_id FROM alert_channels WHERE channel_id = ?').pluck().all(id) as string[];
    const deleted = db.prepare('DELETE FROM channels WHERE account_id = ? AND id = ?').run(accountId, id);
    if (deleted.changes === 0) return null;
    // Escalation steps name channels inside a JSON column: the deleted one leaves them (a step left empty goes).
    const escalating = db
      .prepare('SELECT id, escalation FROM alerts WHERE account_id = ? AND instr(escalation, ?) > 0')
      .all(accountId, JSON.stringify(id)) as { id: string; escalation: string }[];
    const rewrite = db.prepare('UPDATE alerts SET escalation = ? WHERE id = ?');
    for (const row of escalating) rewrite.run(withoutEscalationChannel(row.escalation, id), row.id);
    // An alert left without any channel falls back to the account's default, as on create.
    const fallback = db.prepare('SELECT id FROM channels WHERE account_id = ? AND description = ?').pluck().get(accountId, DEFAULT_CHANNEL) as
      | string
      | undefined;
    if (fallback) {
      db.prepare(
        `INSERT INTO alert_channels (alert_id, channel_id, position)
         SELECT value, ?, 0 FROM json_each(?)
         WHERE NOT EXISTS (SELECT 1 FROM alert_channels WHERE alert_id = value)`,
      ).run(fallback, json(users));
    }
    return { alertsChanged: users.length };
  })();
}

/** ChannelStore.searchChannels: the given filters ORed, oldest first, one page. */
export function searchChannels(db: Database, accountId: string, query: ChannelQuery): Page<ChannelRecord> {
  const either: string[] = [];
  const params: unknown[] = [accountId];
  if (query.types.length) {
    either.push('type IN (SELECT value FROM json_each(?))');
    params.push(json(query.types));
  }
  if (query.descriptions.length) {
    either.push('description IN (SELECT value FROM json_each(?))');
    params.push(json(query.descriptions));
  }
  if (query.ids.length) {
    either.push('id IN (SELECT value FROM json_each(?))');
    params.push(json(query.ids));
  }
  if (query.autoResolve !== null) {
    // auto_resolve counts only on the types that resolve by themselves (a stored true elsewhere means nothing).
    either.push('(type IN (SELECT value FROM json_each(?)) AND auto_resolve = ?)');
    params.push(json([...AUTO_RESOLVE_TYPES]), query.autoResolve ? 1 : 0);
  }
  const rows = db
    .prepare(
      `SELECT * FROM channels WHERE account_id = ?${either.length ? ` AND (${either.join(' OR ')})` : ''}
       ORDER BY seq LIMIT ? OFFSET ?`,
    )
    .all(...params, query.max + 1, (query.page - 1) * query.max) as ChannelRow[];
  return { items: rows.slice(0, query.max).map(channelFromRow), nextPage: rows.length > query.max };
}

/** ChannelStore.countEmailChannelsInUse on SQLite. */
export function countEmailChannelsInUse(db: Database): number {
  return db
    .prepare(
      `SELECT COUNT(*) FROM channels WHERE type = 'email' AND destination <> ''
       AND EXISTS (SELECT 1 FROM alert_channels WHERE alert_channels.channel_id = channels.id)`,
    )
    .pluck()
    .get() as number;
}

/** A channel_signing row; absent for a channel never rotated. */
interface SigningRow {
  generation: number;
  previous_generation: number | null;
  previous_expires_at: number | null;
}

function rotationFromRow(row: SigningRow | undefined): SigningRotation {
  if (!row) return { generation: 0, previous: null };
  const previous = row.previous_generation === null || row.previous_expires_at === null ? null : { generation: row.previous_generation, expiresAt: Number(row.previous_expires_at) };
  return { generation: row.generation, previous };
}

/** ChannelStore.getSigningRotation: generation 0 and no previous one for a channel never rotated. */
export function getSigningRotation(db: Database, channelId: string): SigningRotation {
  return rotationFromRow(db.prepare('SELECT generation, previous_generation, previous_expires_at FROM channel_signing WHERE channel_id = ?').get(channelId) as SigningRow | undefined);
}

/** ChannelStore.rotateSigningSecret: one statement, so two rotations at once move two generations, never one twice. */
export function rotateSigningSecret(db: Database, accountId: string, channelId: string, previousExpiresAt: number): SigningRotation | null {
  const row = db
    .prepare(
      `INSERT INTO channel_signing (channel_id, generation, previous_generation, previous_expires_at)
       SELECT id, 1, 0, ? FROM channels WHERE account_id = ? AND id = ?
       ON CONFLICT (channel_id) DO UPDATE SET previous_generation = generation, generation = generation + 1, previous_expires_at = excluded.previous_expires_at
       RETURNING generation, previous_generation, previous_expires_at`,
    )
    .get(previousExpiresAt, accountId, channelId) as SigningRow | undefined;
  return row ? rotationFromRow(row) : null;
}
