import type { Command } from 'commander';
import type { TimelineEntry } from '../../client/api.js';
import type { GlobalOptions } from '../program.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';

interface HistoryOptions extends GlobalOptions {
  days: string;
}

/** `alertform history NAME`: the timeline of one alert. */
export function registerHistoryCommand(program: Command): void {
  program
    .command('history')
    .description('show the timeline of one alert: alerting, recovered, query failures, mutes, notifications sent or held back')
    .argument('<name>', "the alert's name")
    .option('--days <n>', 'how many days back, 1..90', '7')
    .addHelpText(
      'after',
      `
On alertform serve the timeline has every kind of entry, notifications held back included (muted, backoff,
on_query_failure) with why. Other /v2 servers (Hosted Graphite) answer their documented history: alerting and
recovered only.

Examples:
  $ alertform history "Disk full"
  $ alertform history "Disk full" --days 30
  $ alertform history "Disk full" --json | jq '.entries[] | select(.kind == "notification_suppressed")'`,
    )
    .action(async (name: string, _opts: unknown, command: Command) => {
      const opts = (await import('../context.js')).optionsOf<HistoryOptions>(command);
      const days = Number(opts.days);
      if (!Number.isInteger(days) || days < 1 || days > 90) throw new CliError(`--days must be a whole number from 1 to 90, not "${opts.days}"`);
      const [{ writeOut, createClient }, { loadProjectConfig }, { isNotFound }] = await Promise.all([
        import('../context.js'),
        import('../../definitions/project.js'),
        import('../../client/errors.js'),
      ]);
      const client = createClient(opts, (await loadProjectConfig('.')).config);
      const id = await client.findAlertId(name);
      if (!id) throw new CliError(`no alert named "${name}" on the server`);
      let entries: TimelineEntry[];
      try {
        entries = (await client.getAlertTimeline(id, days)).entries;
      } catch (error) {
        // A server without alertform's timeline (Hosted Graphite): its documented history, in the same shape.
        if (!isNotFound(error)) throw error;
        entries = (await client.getAlertHistory(id, days)).map((entry) => ({
          time: Number(entry.time),
          kind: entry.status,
          metric: entry.metric,
          value: entry.value,
          channel: null,
          reason: null,
        }));
      }
      if (opts.json) await writeJson({ alert: { id, name }, days, entries });
      else await writeOut(formatTimeline(name, days, entries));
    });
}

/** One line per entry, newest first: UTC time, kind, metric and value, channel, reason. */
export function formatTimeline(name: string, days: number, entries: readonly TimelineEntry[]): string {
  if (entries.length === 0) return `no history for "${name}" in the last ${days} day${days === 1 ? '' : 's'}\n`;
  const lines = entries.map((entry) => {
    const time = new Date(entry.time * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
    const what = entry.metric ? `  ${entry.metric}${entry.value === null ? '' : ` = ${entry.value}`}` : '';
    const channel = entry.channel ? `  -> ${entry.channel.type} "${entry.channel.description}"` : '';
    const reason = entry.reason ? `  (${entry.reason})` : '';
    return `${time}  ${entry.kind.padEnd(23)}${what}${channel}${reason}`;
  });
  return `${lines.join('\n')}\n`;
}
