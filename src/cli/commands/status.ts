import type { Command } from 'commander';
import type { AlertRead, AlertState } from '../../model/types.js';
import type { GlobalOptions } from '../program.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';

/**
 * Exit codes of `status`: a script (cron, CI, a monitoring check) tells "alerting" from "cannot know" from "could not
 * read the server". 3 (unknown): nothing is alerting, but some alert's state cannot be known (its queries fail, it
 * has no data, or nothing evaluates it), so "nothing is alerting" would not be the truth.
 */
export const STATUS_EXIT = { nothingAlerting: 0, alerting: 1, failed: 2, unknown: 3 } as const;

/** The states that leave an alert's truth unknown, with the word `status` prints for each. */
const UNKNOWN: Partial<Record<AlertState, string>> = { query_failing: 'QUERY FAILING', no_data: 'NO DATA', not_evaluated: 'NOT EVALUATED' };

/** `alertform status`: what is alerting now, exit 1 when anything is, 3 when some state cannot be known. */
export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('show the alerts that are alerting now (exit 0: none, 1: some, 2: the server could not be read, 3: some cannot be known)')
    .addHelpText(
      'after',
      `
Reads every alert of the account from the server (any /v2 server: alertform serve or Hosted Graphite). Each alert's
state is the one the server's API, console and /metrics give (alertform serve's "state": healthy, alerting,
no_data, query_failing, not_evaluated); a server without it (Hosted Graphite) is read by its "status". Muted alerts
(explicitly, by a schedule or by a maintenance window) that are alerting are listed (and counted) with "muted";
acknowledged ones say by whom, and one whose pages a dependency holds (a parent it depends on is alerting) names
that parent, as the console does.

Exit codes:
  0  nothing is alerting, and every alert was judged on data
  1  something is alerting
  2  the server could not be read (the message says why)
  3  nothing is alerting, but some alert cannot be known: its queries fail, it has no data, or nothing evaluates it
     (a server without --graphite-url); those alerts are listed

Examples:
  $ alertform status
  $ alertform status --json | jq '.alerting[].name'
  $ alertform status --server http://127.0.0.1:8080 --api-key "$ALERTFORM_API_KEY" || page-someone`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const { optionsOf, writeOut, createClient } = await import('../context.js');
      const opts = optionsOf<GlobalOptions>(command);
      let alerts: AlertRead[];
      try {
        const { loadProjectConfig } = await import('../../definitions/project.js');
        alerts = await createClient(opts, (await loadProjectConfig('.')).config).listAlerts();
      } catch (error) {
        throw new CliError((error as Error).message, STATUS_EXIT.failed, { cause: error });
      }
      const alerting = alerts.filter((alert) => stateOf(alert) === 'alerting');
      const unknown = alerts.filter((alert) => UNKNOWN[stateOf(alert)] !== undefined);
      if (opts.json) {
        const brief = (alert: AlertRead) => ({
          id: alert.id,
          name: alert.name,
          metric: alert.metric,
          state: stateOf(alert),
          currently_triggered_metrics: alert.currently_triggered_metrics,
          muted: alert.muted,
          acknowledged_by: alert.acknowledgement?.by ?? null,
          held_by: heldBy(alert, alerts),
        });
        await writeJson({
          total: alerts.length,
          alertingCount: alerting.length,
          unknownCount: unknown.length,
          alerting: alerting.map(brief),
          unknown: unknown.map(brief),
        });
      } else await writeOut(formatStatus(alerts.length, alerting, unknown, alerts));
      // A result, not a failure: exit without a message (as plan --detailed-exitcode exits 2 with changes).
      if (alerting.length > 0) throw new CliError('', STATUS_EXIT.alerting);
      if (unknown.length > 0) throw new CliError('', STATUS_EXIT.unknown);
    });
}

/**
 * The alerts an alert depends on that are alerting now (by name): while one is, its pages are held (the console's
 * dependency notice says the same, from the same read objects).
 */
export function heldBy(alert: AlertRead, all: readonly AlertRead[]): string[] {
  const edges = alert.depends_on ?? [];
  if (edges.length === 0) return [];
  const byId = new Map(all.map((one) => [one.id, one]));
  return edges.flatMap((edge) => {
    const parent = byId.get(edge.alert);
    return parent && stateOf(parent) === 'alerting' ? [parent.name] : [];
  });
}

/** The alert's state: alertform serve says it; from another server (Hosted Graphite), its documented status. */
export function stateOf(alert: AlertRead): AlertState {
  if (alert.state) return alert.state;
  return alert.status === 'alerting' ? 'alerting' : 'healthy';
}

/**
 * A line per alerting alert (name, muted, the metrics that hold it, at most five named), then one per alert that
 * cannot be known (its state in capitals), then the headline.
 */
export function formatStatus(total: number, alerting: readonly AlertRead[], unknown: readonly AlertRead[] = [], all: readonly AlertRead[] = []): string {
  const of = `${total} alert${total === 1 ? '' : 's'}`;
  const marks = (alert: AlertRead) => {
    const held = heldBy(alert, all);
    return (
      (alert.muted ? '  (muted)' : '') +
      (alert.acknowledgement ? `  (acknowledged by ${alert.acknowledgement.by})` : '') +
      (held.length > 0 ? `  (held: ${held.map((name) => `"${name}"`).join(', ')} alerting)` : '')
    );
  };
  const lines = alerting.map((alert) => {
    const metrics = alert.currently_triggered_metrics;
    const shown = metrics.slice(0, 5).join(', ') + (metrics.length > 5 ? ` and ${metrics.length - 5} more` : '');
    return `ALERTING  ${alert.name}${marks(alert)}${shown ? `  ${shown}` : ''}`;
  });
  for (const alert of unknown) lines.push(`${UNKNOWN[stateOf(alert)]}  ${alert.name}${marks(alert)}`);
  const headline =
    alerting.length > 0
      ? `${alerting.length} of ${of} alerting`
      : unknown.length > 0
        ? `nothing is known to be alerting, but ${unknown.length} of ${of} cannot be known`
        : `nothing is alerting (${of})`;
  if (unknown.length > 0 && alerting.length > 0) return `${lines.join('\n')}\n${headline}; ${unknown.length} cannot be known\n`;
  return `${lines.length ? `${lines.join('\n')}\n` : ''}${headline}\n`;
}
