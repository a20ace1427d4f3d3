import { invalidBody } from '../errors.js';

/** Fields of the read objects a PUT accepts and ignores, so that an object read by GET can be sent back as it is. */
export const READ_ONLY_FIELDS = {
  alert: ['id', 'status', 'muted', 'currently_triggered_metrics', 'acknowledgement', 'state', 'evaluated_by'],
  channel: ['id', 'last_error', 'pending_deliveries', 'oldest_pending_seconds'],
  schedule: ['id', 'alerts'],
} as const;

/**
 * The PUT body without its read-only fields. An `id` that is not the one in the path is a 400: the client is
 * sending one object to another's address, and silently ignoring that would overwrite the wrong object.
 */
export function dropReadOnlyFields(
  body: Record<string, unknown>,
  id: string,
  readOnly: readonly string[],
): Record<string, unknown> {
  if (body.id !== undefined && body.id !== id) {
    throw invalidBody([{ path: 'id', message: `is not the id in the path ("${id}"); an id cannot be changed` }]);
  }
  return Object.fromEntries(Object.entries(body).filter(([key]) => !readOnly.includes(key)));
}
