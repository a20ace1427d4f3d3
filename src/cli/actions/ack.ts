import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AcknowledgementRead, AlertRead } from '../../model/types.js';
import { durationMs } from '../../model/duration.js';
import { isNotFound } from '../../client/errors.js';
import { CliError } from '../errors.js';
import { createClient, writeOut } from '../context.js';
import { writeJson } from '../json-output.js';
import { loadProjectConfig } from '../../definitions/project.js';
import type { GlobalOptions } from '../program.js';

export interface AckOptions extends GlobalOptions {
  by?: string;
  note?: string;
  until?: string;
  withdraw?: boolean;
}

/** `alertform ack NAME`: acknowledges (or, with --withdraw, withdraws the acknowledgement of) one alert. */
export async function runAck(name: string, opts: AckOptions): Promise<void> {
  // A bare number is minutes, as for mute --duration; the API gets seconds with their unit, whatever it reads bare.
  const untilMs = opts.until === undefined ? undefined : durationMs(opts.until, { bareUnit: 'm' });
  if (opts.until !== undefined && untilMs === undefined) {
    throw new CliError(`--until must be a duration such as 30m, 2h, 1h30m or 1d (a bare number is minutes), not "${opts.until}"`);
  }
  if (opts.withdraw && (opts.note !== undefined || opts.until !== undefined)) throw new CliError('--withdraw takes no --note or --until');
  const by = (opts.by ?? (await defaultAuthor())).trim();
  if (!by) throw new CliError('say who acknowledges: --by NAME (no git user.name or $USER to default to)');
  const client = createClient(opts, (await loadProjectConfig('.')).config);
  const id = await client.findAlertId(name);
  if (!id) throw new CliError(`no alert named "${name}" on the server`);
  let alert: AlertRead;
  try {
    alert = opts.withdraw
      ? await client.withdrawAcknowledgement(id, by)
      : await client.acknowledgeAlert(id, { by, ...(opts.note ? { note: opts.note } : {}), ...(untilMs !== undefined ? { until: `${Math.ceil(untilMs / 1000)}s` } : {}) });
  } catch (error) {
    // A server without alertform's extension (Hosted Graphite) has no such endpoint.
    if (isNotFound(error)) throw new CliError(`the server has no acknowledgements (an alertform serve extension): ${(error as Error).message}`, 1, { cause: error });
    throw error;
  }
  const acknowledgement = alert.acknowledgement ?? null;
  if (opts.json) await writeJson({ alert: { id, name: alert.name, status: alert.status }, acknowledgement });
  else await writeOut(opts.withdraw ? `Withdrew the acknowledgement of "${alert.name}".\n` : `${describe(alert.name, acknowledgement)}\n`);
}

function describe(name: string, ack: AcknowledgementRead | null): string {
  if (!ack) return `"${name}" is not acknowledged.`;
  const until = ack.until === null ? 'until it recovers' : `until ${new Date(ack.until * 1000).toISOString()} (or it recovers)`;
  return `Acknowledged "${name}" as ${ack.by}, ${until}: no reminders or escalations meanwhile.`;
}

/** Who is at the keyboard: git's user.name, else $USER (API keys belong to accounts, not people). */
async function defaultAuthor(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)('git', ['config', 'user.name'], { timeout: 5_000 });
    if (stdout.trim()) return stdout.trim();
  } catch {
    // No git, or no user.name: fall back to the login name.
  }
  return process.env.USER ?? process.env.USERNAME ?? '';
}
