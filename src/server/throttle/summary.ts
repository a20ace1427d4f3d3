import type { ChannelThrottle } from '../../model/noise-control.js';
import type { Notification, ThrottledSummary } from '../../notifications/types.js';

/** How many held notifications a summary lists by name; the rest are counted. */
export const THROTTLED_LIST_LIMIT = 50;

/** The name a summary goes by in the outbox and on the deliveries page. */
export const THROTTLED_SUMMARY_NAME = 'throttled notifications';

/** A held notification as its row stores it (times epoch ms). */
export interface HeldRow {
  seq: number;
  alert_id: string;
  alert_name: string;
  event: string;
  metric: string;
  value: number | null;
  created_at: number;
}

/** A closed window: the channel, its throttle, and when the window started and ended (epoch ms). */
export interface ClosedWindow {
  channelId: string;
  description: string;
  throttle: ChannelThrottle;
  startedAt: number;
  endsAt: number;
}

/**
 * The one `throttled_summary` notification of a window: every held notification in the order they were made (the
 * first THROTTLED_LIST_LIMIT listed, all of them counted), shaped as a notification about a pseudo-alert so that
 * every notifier formats it (its id is per channel and window: PagerDuty, OpsGenie and VictorOps keep one incident
 * per summary, never folded into an alert's).
 */
export function buildThrottledSummary(window: ClosedWindow, rows: readonly HeldRow[], nowMs: number): Notification {
  const ordered = [...rows].sort((a, b) => a.created_at - b.created_at || a.seq - b.seq);
  const throttled: ThrottledSummary = {
    channel: window.description,
    max_notifications: window.throttle.max_notifications,
    window_minutes: window.throttle.window_minutes,
    window_start: Math.floor(window.startedAt / 1000),
    window_end: Math.floor(window.endsAt / 1000),
    held_count: ordered.length,
    held: ordered.slice(0, THROTTLED_LIST_LIMIT).map((row) => ({
      alert_id: row.alert_id,
      alert_name: row.alert_name,
      event: row.event,
      metric: row.metric,
      value: row.value,
      time: Math.floor(row.created_at / 1000),
    })),
  };
  return {
    event: 'throttled_summary',
    alert: {
      id: `throttle-${window.channelId}-${window.startedAt}`,
      name: THROTTLED_SUMMARY_NAME,
      metric: 'alertform.throttle',
      alert_criteria: { type: 'above', above_value: window.throttle.max_notifications },
      additional_criteria: {},
      expression: 'a',
      info: null,
      notification_type: ['state_change'],
    },
    triggered: [],
    conditions: [],
    graphUrl: null,
    time: Math.floor(nowMs / 1000),
    throttled,
  };
}
