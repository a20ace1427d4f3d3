import { echo } from '../errors.js';
import { PUBLIC_ONLY, refuseLiteralDestination, type DestinationPolicy } from '../net/destination-policy.js';
import type { FieldProblem } from '../../model/schemas.js';
import type { ChannelBody, ChannelType } from '../../model/types.js';
import type { ChannelRecord, ChannelWrite } from '../store/store.js';
import type { RuleResult } from './alert-rules.js';

/** The channel types whose incidents can resolve by themselves; auto_resolve means something only for them. */
export const AUTO_RESOLVE_TYPES: readonly ChannelType[] = ['pagerduty', 'victorops'];

const EMAIL = /^[^\s@,<>]+@[^\s@,<>]+\.[^\s@,<>]+$/;

/**
 * The semantic rules of a channel body that already passed the JSON Schema: the destination suits the type,
 * and auto_resolve: true only on pagerduty and victorops (on other types it would silently do nothing, so it
 * is refused; false is accepted everywhere).
 */
export function checkChannelRules(body: ChannelBody, policy: DestinationPolicy = PUBLIC_ONLY): RuleResult<ChannelWrite> {
  const problems: FieldProblem[] = [];
  const destinationProblem = checkDestination(body.type, body.destination, policy);
  if (destinationProblem) problems.push({ path: 'destination', message: destinationProblem });
  if (body.auto_resolve === true && !AUTO_RESOLVE_TYPES.includes(body.type)) {
    problems.push({ path: 'auto_resolve', message: 'can only be true for pagerduty and victorops channels' });
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      type: body.type,
      description: body.description,
      destination: body.destination.trim(),
      autoResolve: body.auto_resolve ?? false,
    },
  };
}

/** The body a channel PUT stands for. A type change to one without auto-resolution drops a stored auto_resolve. */
export function mergeChannelUpdate(stored: ChannelRecord, patch: Partial<ChannelBody>): ChannelBody {
  const type = patch.type ?? stored.type;
  const autoResolve = patch.auto_resolve ?? (AUTO_RESOLVE_TYPES.includes(type) ? stored.autoResolve : false);
  return {
    type,
    description: patch.description ?? stored.description,
    destination: patch.destination ?? stored.destination,
    auto_resolve: autoResolve,
  };
}

function checkDestination(type: ChannelType, destination: string, policy: DestinationPolicy): string | null {
  const value = destination.trim();
  switch (type) {
    case 'email': {
      const addresses = value.split(',').map((part) => part.trim());
      const bad = addresses.find((address) => !EMAIL.test(address));
      return bad === undefined ? null : `${echo(bad)} is not an email address (several may be given, comma separated)`;
    }
    case 'slack':
    case 'webhook':
    case 'victorops': {
      // The URL itself is a secret (it carries the token): say what is wrong without echoing it.
      if (!isHttpUrl(value)) return `must be an http(s) URL for ${type} channels`;
      // A literal address the deliveries would refuse is refused now; host names are judged at connect time.
      const refusal = refuseLiteralDestination(policy, value);
      return refusal ? `must not lead to a ${refusal} (see docs/security.md)` : null;
    }
    case 'pagerduty':
    case 'opsgenie':
      return value.length > 0 && !/\s/.test(value) ? null : `must be the ${type} integration key`;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
