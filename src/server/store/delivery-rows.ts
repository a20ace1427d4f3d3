import type { NewHistoryEntry } from './history-store.js';
import type { ChannelType, MessageTemplate } from '../../model/types.js';
import type { ClaimedDelivery, DeliveryRecord } from './outbox.js';

/** A deliveries row joined with its channel, as both stores' listing query selects it. */
export interface DeliveryRow {
  id: string;
  state: DeliveryRecord['state'];
  channel_id: string;
  type: string;
  description: string;
  alert_id: string;
  alert_name: string;
  event: string;
  attempts: number;
  created_at: number;
  next_attempt_at: number;
  last_error: string | null;
  last_attempt_at: number | null;
}

/** The columns of a DeliveryRow, for `SELECT ... FROM deliveries d JOIN channels c ON c.id = d.channel_id`. */
export const DELIVERY_LISTING_COLUMNS = `d.id, d.state, d.channel_id, c.type, c.description, d.alert_id, d.alert_name, d.event,
  d.attempts, d.created_at, d.next_attempt_at, d.last_error, d.last_attempt_at`;

/** One page of a listing fetched with LIMIT max + 1: the records, and whether a further page has any. */
export function deliveryPage(rows: DeliveryRow[], max: number): { items: DeliveryRecord[]; nextPage: boolean } {
  return {
    items: rows.slice(0, max).map((row) => ({
      id: row.id,
      state: row.state,
      channel: { id: row.channel_id, type: row.type, description: row.description },
      alert: { id: row.alert_id, name: row.alert_name },
      event: row.event,
      attempts: row.attempts,
      createdAt: row.created_at,
      // A held notification's next step is its window's summary.
      nextAttemptAt: row.state === 'pending' || row.state === 'held' ? row.next_attempt_at : null,
      lastError: row.last_error,
      lastAttemptAt: row.last_attempt_at,
    })),
    nextPage: rows.length > max,
  };
}

/** A claimed deliveries row joined with its channel, as both stores' claim selects it. */
export interface ClaimRow {
  id: string;
  account_id: string;
  alert_id: string;
  payload: string;
  attempts: number;
  created_at: number;
  channel_id: string;
  type: string;
  description: string;
  destination: string;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  auto_resolve: number | boolean;
  template: string | null;
}

/** The record the delivery worker sends from: the notification and its channel as the notifiers take it. */
export function claimedDeliveryFromRow(row: ClaimRow): ClaimedDelivery {
  return {
    id: row.id,
    accountId: row.account_id,
    alertId: row.alert_id,
    payload: JSON.parse(row.payload) as unknown,
    attempts: row.attempts,
    createdAt: row.created_at,
    channel: {
      id: row.channel_id,
      type: row.type as ChannelType,
      description: row.description,
      destination: row.destination,
      autoResolve: row.auto_resolve === 1 || row.auto_resolve === true,
      template: row.template ? (JSON.parse(row.template) as MessageTemplate) : null,
    },
  };
}

/**
 * The history entry of a dead-lettered delivery (`notification_failed`, its channel, `event: dead-lettered: why`):
 * the timeline says what became of each notification, not only that it was written to the outbox. A group's or a
 * throttle's message (no alert of that id) writes none.
 */
export function deadLetterEntry(alertId: string, channelId: string, event: string, outcome: { at: number; error: string }): NewHistoryEntry {
  return { alertId, status: 'notification_failed', value: null, time: Math.floor(outcome.at / 1000), metric: '', channelId, reason: `${event}: dead-lettered: ${outcome.error}` };
}
