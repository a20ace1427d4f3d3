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
    queryFailing: row.query_failing === 1 || row.query_failing === true || row.query_failing === 'true',
    scheduledMutes: schedules.get(row.id) ?? [],
  }));
}

/** The summary query on either database: `$1`/`?` is the account id. eval_state is JSON text in both. */
export const SQLITE_SUMMARY_SQL = {
  alerts: `SELECT id, name, metric, status, muted_until, json_extract(eval_state, '$.queryFailing') AS query_failing
           FROM alerts WHERE account_id = ? ORDER BY seq`,
  links: `SELECT s.alert_id, s.schedule_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
          WHERE a.account_id = ? ORDER BY s.alert_id, s.position`,
};
export const POSTGRES_SUMMARY_SQL = {
  alerts: `SELECT id, name, metric, status, muted_until,
             COALESCE((eval_state::jsonb ->> 'queryFailing') = 'true', false) AS query_failing
           FROM alerts WHERE account_id = $1 ORDER BY seq`,
  links: `SELECT s.alert_id, s.schedule_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
          WHERE a.account_id = $1 ORDER BY s.alert_id, s.position`,
};
