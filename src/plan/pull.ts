import { stringify } from 'yaml';
import type { ActualState } from './state.js';
import { NameIndex } from './references.js';
import { adapterFor } from './adapters/registry.js';
import { defaultOnQueryFailure, type CanonicalAlert, type CanonicalMaintenanceWindow } from '../model/canonical.js';
import { GROUP_BY_DEFAULTS } from '../model/noise-control.js';
import { DEFAULT_CHANNEL, DEFAULT_EXPRESSION, DEFAULT_NOTIFICATION_TYPE, DEFAULT_TIMEZONE } from '../model/defaults.js';
import { deepEqual } from './diff.js';
import { flapGuardToDefinition, throttleToDefinition } from '../model/noise-control.js';
import { escapeInterpolation } from '../definitions/interpolate.js';
import { escapeControls } from './render/escape.js';

/** A file `pull` writes. */
export interface PulledFile {
  name: string;
  text: string;
}

function header(schemaPath: string, note?: string): string {
  return `# yaml-language-server: $schema=${schemaPath}\n${note ? `# ${note}\n` : ''}`;
}

/** An alert as a definition: canonical form with the defaults left out, so the file reads like one a person wrote. */
function alertDefinition(a: CanonicalAlert): Record<string, unknown> {
  const out: Record<string, unknown> = { name: a.name, metric: a.metric, alert_criteria: a.alert_criteria };
  if (Object.keys(a.additional_criteria).length > 0) out.additional_criteria = a.additional_criteria;
  if (a.expression !== DEFAULT_EXPRESSION) out.expression = a.expression;
  if (!(a.notification_channels.length === 1 && a.notification_channels[0] === DEFAULT_CHANNEL)) out.notification_channels = a.notification_channels;
  if (!deepEqual(a.notification_type, DEFAULT_NOTIFICATION_TYPE)) out.notification_type = a.notification_type;
  if (a.scheduled_mutes.length > 0) out.scheduled_mutes = a.scheduled_mutes;
  if (a.info) out.info = a.info;
  if (a.on_query_failure !== defaultOnQueryFailure(a.metric, a.additional_criteria)) out.on_query_failure = a.on_query_failure;
  // Inline steps: the server keeps no policy names, so a pulled alert never names its policy.
  if (a.escalation) out.escalation = a.escalation.map((step) => ({ after: minutesText(step.after_minutes), notify: step.notification_channels }));
  if (a.flap_guard) out.flap_guard = flapGuardToDefinition(a.flap_guard);
  if (a.pagerduty_severity !== null) out.pagerduty_severity = a.pagerduty_severity;
  if (a.opsgenie_priority !== null) out.opsgenie_priority = a.opsgenie_priority;
  if (a.settle_seconds !== undefined) out.settle_seconds = a.settle_seconds;
  if (a.on_no_data !== null) out.on_no_data = a.on_no_data;
  // A parent without a node mapping is written as its bare name, as a person would.
  if (a.depends_on) out.depends_on = a.depends_on.map((d) => (d.nodes ? d : d.alert));
  return out;
}

/** A window as a definition: the recurring or the one-off fields, the zone only when not UTC. */
function windowDefinition(w: CanonicalMaintenanceWindow): Record<string, unknown> {
  const out: Record<string, unknown> = { name: w.name };
  if (w.reason !== null) out.reason = w.reason;
  out.match = w.match;
  if (w.starts_at !== null) out.starts_at = w.starts_at;
  else {
    out.start_time = w.start_time;
    out.repeat = w.repeat;
  }
  if (w.timezone !== DEFAULT_TIMEZONE) out.timezone = w.timezone;
  out.duration = w.duration;
  return out;
}

/** Minutes in the duration grammar, as a person writes them: `90m`, `2h`. */
function minutesText(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60}h` : `${minutes}m`;
}

/**
 * The server's state as definitions files (schedules.yaml, channels.yaml, alerts.yaml, maintenance-windows.yaml) that plan as no-op:
 * references by name, defaults left out, nothing about mutes (those stay hands-on until a file says otherwise).
 * Channel destinations are written as they are: keep the files private or replace them with `${VAR}`.
 */
export function renderPulledDefinitions(
  actual: ActualState,
  schemaPath = '.alertform/schemas/definitions.schema.json',
  /** Alerts the written ones refer to (`depends_on` parents) without being written themselves: named, not dumped. */
  referencedAlerts: readonly { id: string; name: string }[] = [],
): PulledFile[] {
  const channelAdapter = adapterFor('channel');
  const scheduleAdapter = adapterFor('schedule');
  const alertAdapter = adapterFor('alert');
  const channels = new NameIndex([], actual.channels.map((c) => ({ id: channelAdapter.idOf(c), key: channelAdapter.keyOf(c) })));
  const schedules = new NameIndex([], actual.schedules.map((s) => ({ id: scheduleAdapter.idOf(s), key: scheduleAdapter.keyOf(s) })));
  const alerts = new NameIndex([], [...referencedAlerts.map(({ id, name }) => ({ id, key: name })), ...actual.alerts.map((a) => ({ id: alertAdapter.idOf(a), key: alertAdapter.keyOf(a) }))]);
  const refs = { channel: (id: string) => channels.nameOf(id), schedule: (id: string) => schedules.nameOf(id), alert: (id: string) => alerts.nameOf(id) };
  const byName = <T extends { name?: string; description?: string }>(items: T[]) =>
    [...items].sort((x, y) => ((x.name ?? x.description ?? '') < (y.name ?? y.description ?? '') ? -1 : 1));
  // Values go through the YAML library (which quotes what needs it); `${` is escaped, or plan would interpolate it.
  const dump = (value: unknown) => stringify(escapeStrings(value), { lineWidth: 0 });
  const files: PulledFile[] = [];
  if (actual.schedules.length > 0) {
    const list = byName(actual.schedules.map((s) => scheduleAdapter.canonicalActual(s, refs))).map((s) => {
      const out: Record<string, unknown> = { name: s.name, start_time: s.start_time, duration: s.duration };
      if (s.timezone !== DEFAULT_TIMEZONE) out.timezone = s.timezone;
      if (s.repeat.length > 0) out.repeat = s.repeat;
      return out;
    });
    files.push({ name: 'schedules.yaml', text: header(schemaPath) + dump({ schedules: list }) });
  }
  // A channel without a destination (an account's `Email me` before the operator set an address) cannot be
  // written as a valid definition: it stays on the server, unmanaged, and alerts still refer to it by name.
  const writable = actual.channels.filter((c) => c.destination);
  const left = actual.channels.filter((c) => !c.destination).map((c) => c.description);
  if (writable.length > 0) {
    const note = left.length > 0 ? `\n# Left out (no destination set on the server): ${left.map(commentText).join(', ')}` : '';
    const list = byName(writable.map((c) => channelAdapter.canonicalActual(c, refs))).map((c) => {
      const out: Record<string, unknown> = { description: c.description, type: c.type, destination: c.destination };
      if (c.auto_resolve) out.auto_resolve = true;
      if (c.throttle) out.throttle = throttleToDefinition(c.throttle);
      if (c.template) out.template = c.template;
      if (c.group_by) {
        const { nodes, wait_seconds: wait, interval_seconds: interval } = c.group_by;
        out.group_by = { nodes, ...(wait !== GROUP_BY_DEFAULTS.waitSeconds ? { wait_seconds: wait } : {}), ...(interval !== GROUP_BY_DEFAULTS.intervalSeconds ? { interval_seconds: interval } : {}) };
      }
      return out;
    });
    files.push({ name: 'channels.yaml', text: header(schemaPath, `Destinations are credentials: replace them with ${'${VARIABLES}'} before committing.${note}`) + dump({ channels: list }) });
  }
  if (actual.alerts.length > 0) {
    const list = byName(actual.alerts.map((a) => alertAdapter.canonicalActual(a, refs))).map(alertDefinition);
    files.push({ name: 'alerts.yaml', text: header(schemaPath) + dump({ alerts: list }) });
  }
  const windows = actual.maintenanceWindows ?? [];
  if (windows.length > 0) {
    const windowAdapter = adapterFor('maintenance window');
    const list = byName(windows.map((w) => windowAdapter.canonicalActual(w, refs))).map(windowDefinition);
    files.push({ name: 'maintenance-windows.yaml', text: header(schemaPath) + dump({ maintenance_windows: list }) });
  }
  return files;
}

/** Every string value with `${` escaped (escapeInterpolation; keys are not interpolated): the file reads back as the server's text. */
function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return escapeInterpolation(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeStrings(v)]));
  return value;
}

/**
 * A server string inside a YAML comment: double-quoted, with backslashes, quotes and every control character (line
 * breaks first of all) escaped, so it stays on its comment line. Written as it was, a name holding a newline
 * would end the comment and write YAML of its choosing into the file.
 */
function commentText(text: string): string {
  return `"${escapeControls(text.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}
