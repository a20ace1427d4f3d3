import type { ChannelRecord, ChannelWrite, ScheduleRecord } from '../store.js';

/** A row of the channels table. */
export interface ChannelRow {
  id: string;
  account_id: string;
  type: string;
  description: string;
  destination: string;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  auto_resolve: number | boolean;
  last_error: string | null;
  /** JSON, or null: none (noise control). */
  throttle: string | null;
  /** JSON {title?, body?}; null: the default message. */
  template: string | null;
}

/** A channel write's throttle column: JSON, or null when none. */
export function throttleText(channel: ChannelWrite): string | null {
  return channel.throttle ? JSON.stringify(channel.throttle) : null;
}

/** A row of the schedules table. */
export interface ScheduleRow {
  id: string;
  account_id: string;
  name: string;
  start_time: string;
  duration: number;
  timezone: string;
  repeat_days: string;
  anchor: number;
}

export function channelFromRow(row: ChannelRow): ChannelRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type as ChannelRecord['type'],
    description: row.description,
    destination: row.destination,
    autoResolve: row.auto_resolve === 1 || row.auto_resolve === true,
    lastError: row.last_error === null ? null : (JSON.parse(row.last_error) as ChannelRecord['lastError']),
    throttle: row.throttle ? (JSON.parse(row.throttle) as ChannelRecord['throttle']) : null,
    template: row.template ? (JSON.parse(row.template) as ChannelRecord['template']) : null,
  };
}

/** A channel write's template column: JSON, or NULL for the default message. */
export function templateColumn(channel: ChannelWrite): string | null {
  return channel.template ? JSON.stringify(channel.template) : null;
}

/** Schedules with the ids of the alerts that reference them (links ordered by alert creation). */
export function scheduleFromRows(rows: ScheduleRow[], links: { schedule_id: string; alert_id: string }[]): ScheduleRecord[] {
  const alerts = new Map<string, string[]>();
  for (const link of links) {
    const list = alerts.get(link.schedule_id);
    if (list) list.push(link.alert_id);
    else alerts.set(link.schedule_id, [link.alert_id]);
  }
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    startTime: row.start_time,
    duration: row.duration,
    timezone: row.timezone,
    repeat: JSON.parse(row.repeat_days) as ScheduleRecord['repeat'],
    anchor: row.anchor,
    alerts: alerts.get(row.id) ?? [],
  }));
}
