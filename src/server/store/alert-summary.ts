import type { StateFacts } from '../../model/alert-state.js';

/**
 * An alert as lists that look at every alert of an account need it (the console's overview): what is filtered
 * and sorted on, without criteria, channels or the evaluator's whole state, so that 10,000 of them read fast.
 */
export interface AlertSummary {
  id: string;
  name: string;
  metric: string;
  status: string;
  /** Epoch ms, or null. */
  mutedUntil: number | null;
  /** Whether the evaluator's last cycle found the alert's queries failing. */
  queryFailing: boolean;
  /** Whether the evaluator's last judged cycle found no data (model/alert-state.ts). */
  noData: boolean;
  /** Whether the evaluator has judged the alert at least once (it stored a state). */
  evaluated: boolean;
  /** Schedule ids, in order. */
  scheduledMutes: string[];
}

/** One row of the summary queries, as both databases return it. */
export interface AlertSummaryRow {
  id: string;
  name: string;
  metric: string;
  status: string;
  muted_until: number | string | null;
  query_failing: number | boolean | string | null;
  no_data: number | boolean | string | null;
  evaluated: number | boolean;
}

/** A flag as either database answers it from JSON (1, true or 'true'). */
function flag(value: number | boolean | string | null): boolean {
  return value === 1 || value === true || value === 'true';
}

/** Rows and schedule links (ordered by position) as summaries, in the rows' order. */
export function toAlertSummaries(rows: AlertSummaryRow[], links: { alert_id: string; schedule_id: string }[]): AlertSummary[] {
  const schedules = new Map<string, string[]>();
  for (const link of links) {
    const list = schedules.get(link.alert_id);
    if (list) list.push(link.schedule_id);
    else schedules.set(link.alert_id, [link.schedule_id]);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    metric: row.metric,
    status: row.status,
    mutedUntil: row.muted_until === null ? null : Number(row.muted_until),
    queryFailing: flag(row.query_failing),
    noData: flag(row.no_data),
    evaluated: flag(row.evaluated),
    scheduledMutes: schedules.get(row.id) ?? [],
  }));
}

/** The summary query on either database: `$1`/`?` is the account id. eval_state is JSON text in both. */
export const SQLITE_SUMMARY_SQL = {
  alerts: `SELECT id, name, metric, status, muted_until, json_extract(eval_state, '$.queryFailing') AS query_failing,
             json_extract(eval_state, '$.noData') AS no_data, eval_state IS NOT NULL AS evaluated
           FROM alerts WHERE account_id = ? ORDER BY seq`,
  /** What the alerts' states depend on, counted over all accounts (/metrics): a few groups, whatever the number of alerts. */
  stateFacts: `SELECT status, eval_state IS NOT NULL AS evaluated, json_extract(eval_state, '$.queryFailing') AS query_failing,
                 json_extract(eval_state, '$.noData') AS no_data, COUNT(*) AS count
               FROM alerts GROUP BY 1, 2, 3, 4`,
  links: `SELECT s.alert_id, s.schedule_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
          WHERE a.account_id = ? ORDER BY s.alert_id, s.position`,
};
export const POSTGRES_SUMMARY_SQL = {
  alerts: `SELECT id, name, metric, status, muted_until,
             COALESCE((eval_state::jsonb ->> 'queryFailing') = 'true', false) AS query_failing,
             COALESCE((eval_state::jsonb ->> 'noData') = 'true', false) AS no_data, eval_state IS NOT NULL AS evaluated
           FROM alerts WHERE account_id = $1 ORDER BY seq`,
  stateFacts: `SELECT status, eval_state IS NOT NULL AS evaluated,
                 COALESCE((eval_state::jsonb ->> 'queryFailing') = 'true', false) AS query_failing,
                 COALESCE((eval_state::jsonb ->> 'noData') = 'true', false) AS no_data, count(*)::int AS count
               FROM alerts GROUP BY 1, 2, 3, 4`,
  links: `SELECT s.alert_id, s.schedule_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
          WHERE a.account_id = $1 ORDER BY s.alert_id, s.position`,
};

/** One group of stateFacts' rows: alerts that share every fact their state depends on. */
export interface StateFactsGroup {
  facts: StateFacts;
  count: number;
}

/** The stateFacts rows of either database as groups. */
export function toStateFactsGroups(rows: readonly (Pick<AlertSummaryRow, 'status' | 'query_failing' | 'no_data' | 'evaluated'> & { count: number | string })[]): StateFactsGroup[] {
  return rows.map((row) => ({
    facts: { status: row.status, evaluated: flag(row.evaluated), queryFailing: flag(row.query_failing), noData: flag(row.no_data) },
    count: Number(row.count),
  }));
}
