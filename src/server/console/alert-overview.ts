import { muteState } from '../present.js';
import type { AlertSummary } from '../store/alert-summary.js';
import type { AlertRecord, HistoryRecord, ScheduleRecord } from '../store/store.js';

/** What the console shows as an alert's state: one word, the most pressing first. */
export const OVERVIEW_STATES = ['alerting', 'query_failing', 'muted', 'healthy'] as const;
export type OverviewState = (typeof OVERVIEW_STATES)[number];

/** The sort keys of the overview; `-key` sorts descending. */
export const OVERVIEW_SORTS = ['name', 'metric', 'state'] as const;

/** One alert reduced to what the overview filters and sorts on. */
export interface OverviewItem {
  alert: AlertSummary;
  state: OverviewState;
  muted: boolean;
  /** Epoch ms until which it is muted (by hand or by an active schedule); null when not muted. */
  mutedUntil: number | null;
  queryFailing: boolean;
}

/**
 * The console's state of an alert. A mute hides the rest (an alerting alert that is muted pages nobody), so muted
 * comes before query failing and healthy; alerting stays visible as `status` in the row.
 */
export function classifyAlert(alert: AlertSummary, schedules: readonly ScheduleRecord[], now: number): OverviewItem {
  const mute = muteState(alert, schedules, now);
  const queryFailing = alert.queryFailing;
  const state: OverviewState = mute.muted ? 'muted' : queryFailing ? 'query_failing' : alert.status === 'alerting' ? 'alerting' : 'healthy';
  return { alert, state, muted: mute.muted, mutedUntil: mute.until, queryFailing };
}

/** How many alerts are in each state, and in all. */
export function countStates(items: readonly OverviewItem[]): Record<OverviewState | 'total', number> {
  const counts = { total: items.length, alerting: 0, query_failing: 0, muted: 0, healthy: 0 };
  for (const item of items) counts[item.state] += 1;
  return counts;
}

/** The items whose state is one of `states` (all when empty) and whose name or metric contains `search`. */
export function filterItems(items: readonly OverviewItem[], states: readonly string[], search: string | null): OverviewItem[] {
  const needle = search?.toLowerCase() ?? null;
  return items.filter(
    (item) =>
      (states.length === 0 || states.includes(item.state)) &&
      (needle === null || item.alert.name.toLowerCase().includes(needle) || item.alert.metric.toLowerCase().includes(needle)),
  );
}

/** Names sort as people read them (case aside); one collator, far faster than localeCompare over 10,000 rows. */
const COLLATOR = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Sorts in place by `sort` (name, metric, state; `-` first for descending); ties by name. */
export function sortItems(items: OverviewItem[], sort: string): OverviewItem[] {
  const descending = sort.startsWith('-');
  const key = descending ? sort.slice(1) : sort;
  const byName = (a: OverviewItem, b: OverviewItem) => COLLATOR.compare(a.alert.name, b.alert.name);
  const compare =
    key === 'metric'
      ? (a: OverviewItem, b: OverviewItem) => COLLATOR.compare(a.alert.metric, b.alert.metric) || byName(a, b)
      : key === 'state'
        ? (a: OverviewItem, b: OverviewItem) => OVERVIEW_STATES.indexOf(a.state) - OVERVIEW_STATES.indexOf(b.state) || byName(a, b)
        : byName;
  return items.sort(descending ? (a, b) => compare(b, a) : compare);
}

/**
 * Since when an alert has been in its current evaluator condition, from its history (newest first): alerting
 * since the first alerting entry after the last recovery, query failing since the first failure after the last
 * judged entry, healthy since the last recovery. null when the history does not say (never changed, or older than
 * the history read); no "since" is stored, so the console derives it here.
 */
export function sinceOf(item: OverviewItem, history: readonly HistoryRecord[]): number | null {
  const condition = item.queryFailing ? 'query_failed' : item.alert.status === 'alerting' ? 'alerting' : 'recovered';
  if (condition === 'recovered') return history.find((entry) => entry.status === 'recovered')?.time ?? null;
  let since: number | null = null;
  for (const entry of history) {
    if (entry.status !== condition) break;
    since = entry.time;
  }
  return since;
}

/** The summary of a full record (for a store without listAlertSummaries). */
export function summarizeAlert(alert: AlertRecord): AlertSummary {
  return {
    id: alert.id,
    name: alert.name,
    metric: alert.metric,
    status: alert.status,
    mutedUntil: alert.mutedUntil,
    queryFailing: (alert.evalState as { queryFailing?: unknown } | null)?.queryFailing === true,
    scheduledMutes: alert.scheduledMutes,
  };
}
