import type { AlertformClient } from '../client/api.js';
import type { Definitions } from '../definitions/definitions.js';
import type { ActualState } from './state.js';
import { SENSITIVE } from '../redact/placeholder.js';

/** A check of the server's /readyz that is ready but warns (alertform serve: `email` without an SMTP server). */
export interface ServerWarning {
  name: string;
  warning: string;
}

/**
 * The warnings alertform serve gives in /readyz's checks; none from a server without them (the hosted service
 * answers 404) or one that does not answer: a plan never fails on this read, and it is not retried.
 */
export async function readServerWarnings(client: AlertformClient): Promise<ServerWarning[]> {
  try {
    const report = await client.getReadiness();
    const checks = Array.isArray(report?.checks) ? report.checks : [];
    return checks.flatMap((check) => (typeof check?.name === 'string' && typeof check.warning === 'string' ? [{ name: check.name, warning: check.warning }] : []));
  } catch {
    return [];
  }
}

/**
 * The plan's lines for the server's warnings that touch these definitions: `email` when an alert notifies an email
 * channel (defined here, or on the server by that name), so a team learns before the first dead letter.
 */
export function serverWarningsFor(definitions: Definitions, actual: ActualState, warnings: readonly ServerWarning[]): string[] {
  const email = warnings.find((warning) => warning.name === 'email');
  if (!email) return [];
  const emailChannels = new Set([
    ...definitions.channels.filter((channel) => channel.spec.type === 'email').map((channel) => channel.key),
    ...actual.channels.filter((channel) => channel.type === 'email' && channel.destination.trim() !== '').flatMap((channel) => [channel.description, channel.id]),
  ]);
  const notifying = definitions.alerts.filter((alert) => (alert.spec.notification_channels ?? []).some((ref) => emailChannels.has(ref)));
  if (notifying.length === 0) return [];
  // A name written with a ${VAR} is a secret here as everywhere else in a plan.
  const names = notifying.slice(0, 3).map((alert) => `"${alert.sensitivePaths.includes('name') ? SENSITIVE : alert.key}"`).join(', ');
  const more = notifying.length > 3 ? ` and ${notifying.length - 3} more` : '';
  return [`the server says: ${email.warning} (alerts ${names}${more} notify an email channel)`];
}
