import { canonicalDestination } from '../../model/canonical.js';
import { AUTO_RESOLVE_TYPES } from '../../model/defaults.js';
import { checkAutoResolve } from '../../model/rules.js';
import type { FieldProblem } from '../../model/schemas.js';
import type { ChannelBody, ChannelType } from '../../model/types.js';
import type { ChannelRecord, ChannelWrite } from '../store/store.js';
import type { RuleResult } from './alert-rules.js';

const EMAIL = /^[^\s@,<>]+@[^\s@,<>]+\.[^\s@,<>]+$/;

/**
 * The semantic rules of a channel body that already passed the JSON Schema: the destination suits the type,
 * and auto_resolve: true only on pagerduty and victorops (on other types it would silently do nothing, so it
 * is refused; false is accepted everywhere).
 */
export function checkChannelRules(body: ChannelBody): RuleResult<ChannelWrite> {
  const problems: FieldProblem[] = [];
  const destinationProblem = checkDestination(body.type, body.destination);
  if (destinationProblem) problems.push({ path: 'destination', message: destinationProblem });
  problems.push(...checkAutoResolve(body.type, body.auto_resolve));
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      type: body.type,
      description: body.description,
      destination: canonicalDestination(body.destination),
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

function checkDestination(type: ChannelType, destination: string): string | null {
  const value = destination.trim();
  switch (type) {
    case 'email': {
      const addresses = value.split(',').map((part) => part.trim());
      const bad = addresses.find((address) => !EMAIL.test(address));
      return bad === undefined ? null : `"${bad}" is not an email address (several may be given, comma separated)`;
    }
    case 'slack':
    case 'webhook':
    case 'victorops':
      // The URL itself is a secret (it carries the token): say what is wrong without echoing it.
      return isHttpUrl(value) ? null : `must be an http(s) URL for ${type} channels`;
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
