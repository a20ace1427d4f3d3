import type { AlertCriteria } from '../model/types.js';
import type { NotificationEvent } from '../evaluation/transitions.js';
import type { Notification } from './types.js';

/** The criteria in words: `above 90 for 5 minutes`, `outside 10..90`, `missing for 10 minutes`. */
export function describeCriteria(criteria: AlertCriteria): string {
  const period = typeof criteria.time_period === 'number' && criteria.time_period > 0 ? criteria.time_period : null;
  const span = period === null ? '' : ` for ${period} minute${period === 1 ? '' : 's'}`;
  switch (criteria.type) {
    case 'above':
      return `above ${criteria.above_value}${span}`;
    case 'below':
      return `below ${criteria.below_value}${span}`;
    case 'outside_bounds':
      return `outside ${criteria.below_value}..${criteria.above_value}${span}`;
    case 'missing':
      return `missing${span}`;
  }
}

/** The status word a notification carries. */
export function statusOf(event: NotificationEvent): Exclude<NotificationEvent, 'reminder' | 'escalated'> {
  return event === 'reminder' || event === 'escalated' ? 'alerting' : event;
}

const HEADLINES: Record<NotificationEvent, string> = {
  alerting: 'ALERTING',
  reminder: 'STILL ALERTING',
  recovered: 'RECOVERED',
  query_failed: 'QUERY FAILED',
  query_recovered: 'QUERY WORKS AGAIN',
  no_data: 'NO DATA',
  no_data_recovered: 'DATA AGAIN',
  escalated: 'ESCALATED',
  acknowledged: 'ACKNOWLEDGED',
  flapping: 'FLAPPING',
  throttled_summary: 'THROTTLED',
  grouped: 'GROUPED',
};

/** For an escalation step: ` (escalation step 2 of 3: alerting for 30 minutes)`; empty otherwise. */
export function describeEscalation(notification: Notification): string {
  const note = notification.escalation;
  if (notification.event !== 'escalated' || !note) return '';
  return ` (escalation step ${note.step} of ${note.of}: alerting for ${note.after_minutes} minute${note.after_minutes === 1 ? '' : 's'})`;
}

/** `14:05` (UTC) of unix seconds. */
function clock(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 16);
}

/** The flap guard's and the throttle's own words, or null for the other events. */
function noiseSummary(notification: Notification): string | null {
  const { flapping, throttled, alert } = notification;
  if (notification.event === 'flapping' && flapping) {
    return `[FLAPPING] ${alert.name}: changed state ${flapping.changes} times in ${flapping.window_minutes} minutes; notifications paused until it is stable for ${flapping.window_minutes} minutes`;
  }
  if (notification.event === 'throttled_summary' && throttled) {
    const count = throttled.held_count;
    return `[THROTTLED] ${count} notification${count === 1 ? '' : 's'} to ${throttled.channel} held back between ${clock(throttled.window_start)} and ${clock(throttled.window_end)} UTC`;
  }
  if (notification.event === 'grouped' && notification.grouped) {
    const { count, group_key: key, channel } = notification.grouped;
    return `[GROUPED] ${count} notification${count === 1 ? '' : 's'} to ${channel} for ${key || '(no key)'}`;
  }
  return null;
}

/** The lines of a grouped message: one per member listed (alert: event series = value), then how many more. */
export function describeGrouped(grouped: NonNullable<Notification['grouped']>): string[] {
  const lines = grouped.members.map((one) => `${one.alert_name}: ${one.event} ${one.series}${one.value === null ? '' : ` = ${one.value}`}`);
  if (grouped.count > grouped.members.length) lines.push(`… and ${grouped.count - grouped.members.length} more`);
  return lines;
}

/** The lines of a throttle summary: one per held notification (time, alert, event, metric = value), then how many more. */
export function describeHeld(throttled: NonNullable<Notification['throttled']>): string[] {
  const lines = throttled.held.map(
    (one) => `${clock(one.time)} ${one.alert_name}: ${one.event}${one.metric ? ` ${one.metric}${one.value === null ? '' : ` = ${one.value}`}` : ''}`,
  );
  if (throttled.held_count > throttled.held.length) lines.push(`… and ${throttled.held_count - throttled.held.length} more`);
  return lines;
}

/** One line: `[ALERTING] name: metric = 93 (above 90)`. */
export function summarize(notification: Notification): string {
  const { alert, triggered, event } = notification;
  const first = triggered[0];
  const more = triggered.length > 1 ? ` and ${triggered.length - 1} more` : '';
  const what = first ? `: ${first.metric}${first.value === null ? '' : ` = ${first.value}`}${more}` : '';
  const criteria = event === 'query_failed' || event === 'query_recovered' || event === 'no_data_recovered' ? '' : ` (${describeCriteria(alert.alert_criteria)})`;
  if (notification.test) return `[TEST] ${alert.name}: no alert is firing`;
  if (event === 'acknowledged') return `[${HEADLINES[event]}] ${alert.name}: ${describeAcknowledgement(notification)}`;
  const noise = noiseSummary(notification);
  if (noise) return noise;
  return `[${HEADLINES[event]}] ${alert.name}${what}${criteria}${describeEscalation(notification)}`;
}

/** Whether the alert combines several criteria. */
export function isComposite(notification: Notification): boolean {
  return Object.keys(notification.alert.additional_criteria).length > 0;
}

/** A plain-text body: summary, metrics, conditions, info and graph. */
export function describeText(notification: Notification): string {
  const lines = [summarize(notification), ''];
  if (notification.throttled) {
    const { max_notifications: max, window_minutes: minutes } = notification.throttled;
    lines.push(`The channel's throttle lets ${max} notification${max === 1 ? '' : 's'} through per ${minutes} minutes. Held back:`);
    lines.push(...describeHeld(notification.throttled).map((line) => `  ${line}`));
    if (notification.consoleUrl) lines.push('', `Console: ${notification.consoleUrl}`);
    return lines.join('\n');
  }
  if (notification.grouped) {
    lines.push(...describeGrouped(notification.grouped).map((line) => `  ${line}`));
    if (notification.consoleUrl) lines.push('', `Console: ${notification.consoleUrl}`);
    return lines.join('\n');
  }
  lines.push(`Alert: ${notification.alert.name}`);
  lines.push(`Status: ${statusOf(notification.event)}`);
  if (notification.escalation) lines.push(`Escalation:${describeEscalation(notification).replace(/^ \((.*)\)$/, ' $1')}`);
  lines.push(`Criteria: ${describeCriteria(notification.alert.alert_criteria)}`);
  if (isComposite(notification)) {
    lines.push(`Expression: ${notification.alert.expression}`);
    for (const condition of notification.conditions) {
      lines.push(`  ${condition.letter}: ${condition.metric} ${describeCriteria(condition.criteria)} -> ${condition.state}`);
    }
  }
  if (notification.failure) lines.push(`Failure: ${notification.failure}`);
  if (notification.acknowledgement) lines.push(`Acknowledged: ${describeAcknowledgement(notification)}`);
  if (notification.triggered.length > 0) {
    lines.push('Metrics:');
    for (const one of notification.triggered) lines.push(`  ${one.metric} = ${one.value === null ? 'no data' : one.value}`);
  }
  if (notification.alert.info) lines.push('', notification.alert.info);
  if (notification.graphUrl) lines.push('', `Graph: ${notification.graphUrl}`);
  if (notification.consoleUrl) lines.push(`Console: ${notification.consoleUrl}`);
  if (notification.ackUrl) lines.push(`Acknowledge: ${notification.ackUrl}`);
  return lines.join('\n');
}

/** `acknowledged by Ann until 2026-11-24T20:00:00.000Z: looking into it` (who, until when, the note). */
export function describeAcknowledgement(notification: Notification): string {
  const ack = notification.acknowledgement;
  if (!ack) return 'acknowledged';
  const until = ack.until === null ? '' : ` until ${new Date(ack.until * 1000).toISOString()}`;
  return `acknowledged by ${ack.by}${until}${ack.note ? `: ${ack.note}` : ''}`;
}
