import type { Command } from 'commander';
import type { DeliveryRead } from '../../model/types.js';
import type { GlobalOptions } from '../program.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';

interface DeliveriesOptions extends GlobalOptions {
  failed?: boolean;
}

/** `alertform deliveries`: the account's notifications still waiting in the server's outbox, or dead-lettered. */
export function registerDeliveriesCommand(program: Command): void {
  program
    .command('deliveries')
    .description("list the account's pending and dead-lettered notifications (alertform's server)")
    .option('--failed', 'only dead-lettered notifications (retries ran out, or the service rejected them)')
    .addHelpText(
      'after',
      `
A notification is pending while its channel's service does not take it (retried with backoff until the server's
--delivery-max-age), then dead. Destinations (URLs, keys, addresses) are never shown.

Examples:
  $ alertform deliveries
  $ alertform deliveries --failed
  $ alertform deliveries --json --server http://127.0.0.1:8080 --api-key "$ALERTFORM_API_KEY"`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const [{ optionsOf, writeOut, createClient }, { loadProjectConfig }] = await Promise.all([
        import('../context.js'),
        import('../../definitions/project.js'),
      ]);
      const opts = optionsOf<DeliveriesOptions>(command);
      const client = await createClient(opts, (await loadProjectConfig('.')).config);
      const { isNotFound } = await import('../../client/errors.js');
      const deliveries = await client.listDeliveries(opts.failed ? ['dead'] : ['pending', 'dead']).catch((error: unknown) => {
        // The hosted API has no outbox to show: say so instead of a bare 404.
        if (isNotFound(error)) throw new CliError('this server has no /v2/deliveries/ (only alertform serve keeps an outbox)');
        throw error;
      });
      if (opts.json) await writeJson({ deliveries });
      else await writeOut(formatDeliveries(deliveries, Date.now()));
    });
}

/** One line per delivery: state, age, attempts, channel, alert, event, and the next attempt or the last error. */
export function formatDeliveries(deliveries: DeliveryRead[], now: number): string {
  if (deliveries.length === 0) return 'no pending or dead deliveries\n';
  const lines = deliveries.map((d) => {
    const age = formatAge(now / 1000 - Number(d.created_at));
    const next = d.next_attempt_at === null ? '' : `  next try in ${formatAge(Number(d.next_attempt_at) - now / 1000)}`;
    const error = d.last_error ? `  last error: ${d.last_error}` : '';
    return `${d.state.padEnd(7)} ${age.padStart(6)} old  ${String(d.attempts).padStart(3)} tries  ${d.channel.type} "${d.channel.description}"  ${d.alert.name}: ${d.event}${next}${error}`;
  });
  return `${lines.join('\n')}\n${deliveries.length} deliver${deliveries.length === 1 ? 'y' : 'ies'}\n`;
}

function formatAge(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s}s`;
  if (s < 7_200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3_600)}h`;
  return `${Math.round(s / 86_400)}d`;
}
