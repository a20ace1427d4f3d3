import { AUTO_RESOLVE_TYPES, DEFAULT_EXPRESSION } from './defaults.js';
import { checkTargetPatterns } from './graphite-target/check-target.js';
import { canonicalDestination, usesGraphiteFunction } from './canonical.js';
import { ExpressionError, expressionLetters, formatExpression, parseExpression } from './expression.js';
import type { FieldProblem } from './schemas.js';
import type { AlertCriteria, ChannelType, OnQueryFailure } from './types.js';
import { isHttpUrl } from './url.js';

/**
 * The rules a JSON Schema cannot say, as problems with a dot path inside one resource. The server answers them as
 * 400 details; definitions add the file and line. One set of rules, so a file that validates is a body the server
 * takes.
 */

/** outside_bounds needs below_value under above_value. */
export function checkCriteriaBounds(criteria: AlertCriteria, path: string): FieldProblem[] {
  if (criteria.type !== 'outside_bounds' || criteria.below_value === undefined || criteria.above_value === undefined) return [];
  if (criteria.below_value < criteria.above_value) return [];
  return [{ path: `${path}.below_value`, message: 'must be less than above_value for outside_bounds' }];
}

/**
 * The letters of a composite alert checked against its expression: letters are b..z, case-insensitive and given
 * once; an expression is required with additional criteria, must parse, may use only known letters and must use
 * every additional one. Returns the canonical expression (the source as given when it does not parse).
 */
export function checkExpressionLetters(
  additionalKeys: readonly string[],
  expression: string | undefined,
): { expression: string; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const lower = additionalKeys.map((key) => key.toLowerCase());
  additionalKeys.forEach((key, i) => {
    if (lower[i] === 'a') problems.push({ path: `additional_criteria.${key}`, message: 'the letter "a" is the main criteria; use b..z' });
    else if (lower.indexOf(lower[i]!) !== i) {
      problems.push({ path: `additional_criteria.${key}`, message: `letter "${lower[i]}" is given twice (letters ignore case)` });
    }
  });
  const letters = [...new Set(lower.filter((letter) => letter !== 'a'))];
  if (expression === undefined) {
    if (letters.length > 0) problems.push({ path: 'expression', message: 'is required when additional_criteria is given' });
    return { expression: DEFAULT_EXPRESSION, problems };
  }
  let used: string[];
  let canonical: string;
  try {
    const tree = parseExpression(expression);
    used = expressionLetters(tree);
    canonical = formatExpression(tree);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    problems.push({ path: 'expression', message: `invalid expression: ${error.message} (at character ${error.position + 1})` });
    return { expression, problems };
  }
  for (const letter of used) {
    if (letter !== 'a' && !letters.includes(letter)) problems.push({ path: 'expression', message: `letter "${letter}" has no additional_criteria entry` });
  }
  for (const letter of letters) {
    if (!used.includes(letter)) {
      problems.push({ path: `additional_criteria.${letter}`, message: `letter "${letter}" is not used in expression "${expression}"` });
    }
  }
  return { expression: canonical, problems };
}

/**
 * Every query of an alert (its metric, each additional criterion's) is a valid graphite target: malformed
 * wildcards (`[z-a]`, an unclosed bracket or brace) are refused now rather than failing every cycle. `confine`
 * adds a caller's own rule (the server's metric prefixes of the account).
 */
export function checkMetricPatterns(
  metric: string,
  additional: Readonly<Record<string, { metric: string }>> | undefined,
  confine: (query: string) => string | null = unconfined,
): FieldProblem[] {
  // One loop, no list of queries built: this runs for every alert of every load, and most have one query.
  const problems: FieldProblem[] = [];
  checkQuery('metric', metric, confine, problems);
  for (const key in additional) {
    if (Object.hasOwn(additional, key)) checkQuery(`additional_criteria.${key}.metric`, additional[key]!.metric, confine, problems);
  }
  return problems;
}

const unconfined = (): null => null;

function checkQuery(path: string, query: string, confine: (query: string) => string | null, problems: FieldProblem[]): void {
  // The confinement speaks first: a path outside the prefixes is the finding, whatever its wildcards.
  const message = confine(query) ?? checkTargetPatterns(query);
  if (message !== null) problems.push({ path, message });
}

/** on_query_failure other than null only where a query can fail as a query: metrics that call a function. */
export function checkOnQueryFailure(
  value: OnQueryFailure | undefined,
  metric: string,
  additional?: Readonly<Record<string, { metric: string }>>,
): FieldProblem[] {
  if (value == null || usesGraphiteFunction(metric, additional)) return [];
  return [{ path: 'on_query_failure', message: 'is only valid when the metric calls a graphite function, e.g. sumSeries(...)' }];
}

/** auto_resolve: true only where incidents resolve by themselves (on other types it would silently do nothing). */
export function checkAutoResolve(type: ChannelType, autoResolve: boolean | undefined): FieldProblem[] {
  if (autoResolve !== true || AUTO_RESOLVE_TYPES.includes(type)) return [];
  return [{ path: 'auto_resolve', message: `can only be true for ${AUTO_RESOLVE_TYPES.join(' and ')} channels, not ${type}` }];
}

const EMAIL = /^[^\s@,<>]+@[^\s@,<>]+\.[^\s@,<>]+$/;

/**
 * Whether an address's domain names a host rather than a mail domain: a domain literal (`a@[127.0.0.1]`,
 * `a@[IPv6:::1]`), an IP address written as a domain (`a@127.0.0.1`, `a@127.0.0.0x1`: no top-level domain is
 * numeric), or localhost (`a@localhost.`, `a@x.localhost`). The operator's SMTP relay would deliver to that host on
 * its own network; every such domain is refused, whatever `--allow-private-destinations` says (mail has no use for
 * them, and a name that is not a literal is the relay's to resolve).
 */
function namesAHost(address: string): boolean {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase().replace(/\.+$/, '');
  if (domain.startsWith('[')) return true;
  const last = domain.slice(domain.lastIndexOf('.') + 1);
  return /^(?:\d+|0x[0-9a-f]*)$/.test(last) || domain === 'localhost' || domain.endsWith('.localhost');
}

/** The most recipients one email channel may have (said in the channel schema's description too). */
export const MAX_EMAIL_RECIPIENTS = 10;

/** How a caller wants destination problems said. */
export interface DestinationCheckOptions {
  /** How a bad email address is named in the message (the server cuts it; definitions hide one from the environment). */
  show?: (address: string) => string;
  /** A caller's own rule about a valid URL (the server's refusal of private addresses). */
  refuseUrl?: (url: string) => string | null;
}

/**
 * The destination suits the channel type: email addresses (comma separated), an http(s) URL for slack, webhook and
 * victorops, a key without spaces for pagerduty and opsgenie. URLs and keys are credentials, so their messages
 * never echo the value.
 */
export function checkDestination(type: ChannelType, destination: string, options: DestinationCheckOptions = {}): FieldProblem[] {
  const message = destinationProblem(type, canonicalDestination(destination), options);
  return message === null ? [] : [{ path: 'destination', message }];
}

function destinationProblem(type: ChannelType, value: string, options: DestinationCheckOptions): string | null {
  switch (type) {
    case 'email': {
      const addresses = value.split(',').map((part) => part.trim());
      // Each notification is one message to every recipient: an uncapped list would make the server a mailer.
      if (addresses.length > MAX_EMAIL_RECIPIENTS) return `has ${addresses.length} email addresses: at most ${MAX_EMAIL_RECIPIENTS} per channel`;
      const show = options.show ?? ((address: string) => `"${address}"`);
      const bad = addresses.find((address) => !EMAIL.test(address));
      if (bad !== undefined) return `${show(bad)} is not an email address (several may be given, comma separated)`;
      const host = addresses.find(namesAHost);
      if (host !== undefined) return `${show(host)} has an IP address or localhost as its domain: only mail domains are accepted (see docs/security.md)`;
      return null;
    }
    case 'slack':
    case 'webhook':
    case 'victorops':
      if (!isHttpUrl(value)) return `must be an http(s) URL for ${type} channels`;
      return options.refuseUrl?.(value) ?? null;
    case 'pagerduty':
    case 'opsgenie':
      return value.length > 0 && !/\s/.test(value) ? null : `must be the ${type} integration key`;
  }
}

