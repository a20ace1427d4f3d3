import type { ChannelType, NotificationType } from './types.js';

/**
 * The API's defaults and limits, once: the server fills them in, the planner expects them, the schemas repeat the
 * numbers (test/unit/model/defaults.test.ts keeps the schemas in step).
 */

/** The channel every account is made with, and the one an alert naming no channel gets. */
export const DEFAULT_CHANNEL = 'Email me';

/** How often an alerting alert notifies when notification_type is not given. */
export const DEFAULT_NOTIFICATION_TYPE: Readonly<NotificationType> = ['every', 60];

/** The expression of an alert without additional criteria: its own criteria, letter a. */
export const DEFAULT_EXPRESSION = 'a';

/**
 * The server's settle delay (`serve --settle-delay`), seconds: only data older than this is judged. A minute covers
 * the usual ways a point reaches carbon late (collectd, Telegraf, StatsD flush every 10 s, with jitter; carbon-relay
 * and aggregator buffers; minutely cron collectors that report at staggered seconds of their minute) at the cost of a
 * minute of detection latency. See docs/evaluator.md.
 */
export const DEFAULT_SETTLE_SECONDS = 60;

/** The largest settle delay an alert may ask for (an hour: beyond it an alert would judge the past). */
export const MAX_SETTLE_SECONDS = 3600;

/** The timezone of a schedule that names none. */
export const DEFAULT_TIMEZONE = 'UTC';

/** The longest mute the API takes: a year, in minutes. */
export const MAX_MUTE_MINUTES = 525_600;

/** The channel types whose incidents can resolve by themselves; auto_resolve means something only for them. */
export const AUTO_RESOLVE_TYPES: readonly ChannelType[] = ['pagerduty', 'victorops'];

/** How many alerts, channels and schedules one account may hold on the server (`serve --max-alerts-per-account` etc.). */
export interface Quotas {
  alerts: number;
  channels: number;
  schedules: number;
  /** Deliveries waiting in the outbox (`--max-pending-deliveries-per-account`): past it new ones are refused. */
  pendingDeliveries: number;
}

/** Room for any real team; a bound on what one key can make the server store and evaluate. */
export const DEFAULT_QUOTAS: Quotas = { alerts: 10_000, channels: 1_000, schedules: 1_000, pendingDeliveries: 10_000 };
