import { canonicalStartsAt, canonicalWeekdays, canonicalWindowMatch, type CanonicalMaintenanceWindow } from '../../model/canonical.js';
import { canonicalTimezone } from '../../model/timezone.js';
import type { MaintenanceWindowBody, MaintenanceWindowRead } from '../../model/maintenance-window.js';
import { windowDurationMinutes } from '../../model/window-rules.js';
import type { MaintenanceWindowDefinition } from '../../definitions/definitions.js';
import type { IdRegistry } from '../references.js';
import type { ActualReferences, AdapterOf, DesiredReferences } from './adapter.js';
import { pick } from './adapter.js';

function canonical(w: MaintenanceWindowDefinition | MaintenanceWindowRead, channel: (ref: string, index: number) => string): CanonicalMaintenanceWindow {
  const oneOff = Boolean(w.starts_at);
  return {
    name: w.name,
    reason: w.reason || null,
    match: canonicalWindowMatch(w.match ?? {}, channel),
    starts_at: canonicalStartsAt(w.starts_at),
    // A one-off window has no rhythm, whatever a server answers for the recurring fields.
    start_time: oneOff ? null : (w.start_time ?? null),
    repeat: oneOff ? [] : canonicalWeekdays(w.repeat ?? []),
    timezone: canonicalTimezone(w.timezone),
    // Definitions may say `2h`; the API counts minutes (a duration the rules refused stays NaN: never applied).
    duration: windowDurationMinutes(w.duration) ?? Number.NaN,
  };
}

/**
 * The API body: a create leaves out what is unset (a one-off window has no start_time or repeat); an update sends
 * every field, nulls included, so that a window turned from one-off into weekly (or back) drops the other form.
 */
function windowBody(c: CanonicalMaintenanceWindow, ids: IdRegistry, full: boolean): MaintenanceWindowBody {
  const match = { ...c.match, ...(c.match.channels ? { channels: c.match.channels.map((name) => ids.get('channel', name) ?? name) } : {}) };
  const body: MaintenanceWindowBody = { name: c.name, match, timezone: c.timezone, duration: c.duration };
  if (full || c.reason !== null) body.reason = c.reason;
  if (full || c.starts_at !== null) body.starts_at = c.starts_at;
  if (full || c.start_time !== null) body.start_time = c.start_time;
  if (full || c.repeat.length > 0) body.repeat = c.repeat.length > 0 ? c.repeat : null;
  return body;
}

/** A window's timing fields: when one changes, all three are sent, so that the form left behind is cleared. */
const TIMING = ['starts_at', 'start_time', 'repeat'];

/** Maintenance windows (/v2/maintenance_windows/, an alertform extension), identified by name. */
export const maintenanceWindowAdapter: AdapterOf<'maintenance window'> = {
  kind: 'maintenance window',
  keyOf: (read) => read.name,
  idOf: (read) => read.id,
  canonicalDesired: (spec, refs: DesiredReferences) => canonical(spec, (ref, i) => refs.channel(ref, `match.channels.${i}`)),
  canonicalActual: (read, refs: ActualReferences) => canonical(read, (id) => refs.channel(id)),
  unknownFields: () => [],
  // The channels a window names are created before it, and may not be deleted while it names them.
  references: (c) => (c.match.channels ? [{ kind: 'channel', path: 'match.channels', names: c.match.channels }] : []),
  secretPaths: () => [],
  createBody: (c, ids) => windowBody(c, ids, false),
  updateBody: (c, ids, fields) => pick(windowBody(c, ids, true), fields.some((field) => TIMING.includes(field)) ? [...new Set([...fields, ...TIMING])] : fields),
  create: (client, body) => client.createMaintenanceWindow(body),
  update: (client, id, body) => client.updateMaintenanceWindow(id, body),
  remove: (client, id) => client.deleteMaintenanceWindow(id),
};
