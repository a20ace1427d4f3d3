import type { Command } from 'commander';
import type { AlertRead } from '../../model/types.js';
import type { GlobalOptions } from '../program.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';

/** Exit codes of `status`: a script (cron, CI, a monitoring check) tells "alerting" from "could not tell". */
export const STATUS_EXIT = { nothingAlerting: 0, alerting: 1, failed: 2 } as const;

/** `alertform status`: what is alerting now, exit 1 when anything is. */
export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('show the alerts that are alerting now (exit 0: none, 1: some, 2: the server could not be read)')
    .addHelpText(
      'after',
      `
Reads every alert of the account from the server (any /v2 server: alertform serve or Hosted Graphite). Muted alerts
that are alerting are listed (and counted) with "muted".

Exit codes: 0 nothing is alerting, 1 something is, 2 the server could not be read (the message says why).

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
      const alerting = alerts.filter((alert) => alert.status === 'alerting');
      if (opts.json) {
        await writeJson({
          total: alerts.length,
          alertingCount: alerting.length,
          alerting: alerting.map((alert) => ({
            id: alert.id,
            name: alert.name,
            metric: alert.metric,
            currently_triggered_metrics: alert.currently_triggered_metrics,
            muted: alert.muted,
          })),
        });
      } else await writeOut(formatStatus(alerts.length, alerting));
      // A result, not a failure: exit 1 without a message (as plan --detailed-exitcode exits 2 with changes).
      if (alerting.length > 0) throw new CliError('', STATUS_EXIT.alerting);
    });
}

/** A headline, then one line per alerting alert: name, muted, the metrics that hold it (at most five named). */
export function formatStatus(total: number, alerting: readonly AlertRead[]): string {
  if (alerting.length === 0) return `nothing is alerting (${total} alert${total === 1 ? '' : 's'})\n`;
  const lines = alerting.map((alert) => {
    const metrics = alert.currently_triggered_metrics;
    const shown = metrics.slice(0, 5).join(', ') + (metrics.length > 5 ? ` and ${metrics.length - 5} more` : '');
    return `ALERTING  ${alert.name}${alert.muted ? '  (muted)' : ''}${shown ? `  ${shown}` : ''}`;
  });
  return `${lines.join('\n')}\n${alerting.length} of ${total} alert${total === 1 ? '' : 's'} alerting\n`;
}
