import type { DeliveryQuery, DeliveryState } from './outbox.js';

/** The listing states of held notifications (a throttle's), as opposed to the outbox's own. */
export const HELD_STATES: readonly DeliveryState[] = ['held', 'summarized'];

/** Whether a deliveries listing asks for held notifications too (then it reads both tables). */
export function listsHeld(query: DeliveryQuery): boolean {
  return query.states.some((state) => HELD_STATES.includes(state));
}

/**
 * The columns of a held notification as a DeliveryRow (FROM held_notifications h JOIN channels c): `held` until its
 * window's summary is made (next_attempt_at: when that is due), then `summarized`.
 */
export const HELD_LISTING_COLUMNS = `h.id, CASE WHEN h.summary_id IS NULL THEN 'held' ELSE 'summarized' END AS state, h.channel_id, c.type,
  c.description, h.alert_id, h.alert_name, h.event, 0 AS attempts, h.created_at, h.window_ends_at AS next_attempt_at,
  NULL AS last_error, NULL AS last_attempt_at`;
