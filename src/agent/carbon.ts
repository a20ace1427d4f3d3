import { AlertformError } from '../model/errors.js';
/**
 * Where metrics go. The hosted carbon endpoint routes metrics by the API key at the start of their names, so it
 * gets the prefix `KEY.<prefix>`; any other (self-hosted) carbon gets `<prefix>` and the key never enters a
 * metric name.
 */
export const HOSTED_CARBON_HOST = 'carbon.hostedgraphite.com';
export const HOSTED_CARBON_PORT = 2003;

/** The /v2 API used to check a key when neither --server nor ALERTFORM_URL says otherwise. */
export const HOSTED_API_URL = 'https://api.hostedgraphite.com';

export interface CarbonTarget {
  host: string;
  port: number;
  /** True for the hosted endpoint: metric names then start with the key. */
  hosted: boolean;
}

export class CarbonError extends AlertformError {
  constructor(message: string) {
    super('agent_carbon', message);
  }
}

/** The plaintext protocol's port on every carbon (carbon-cache, carbon-c-relay, go-carbon): `--carbon HOST` means it. */
export const CARBON_PLAINTEXT_PORT = 2003;

/** Parses `HOST:PORT` or `HOST` (port 2003; `[v6]:PORT` or `[v6]` for IPv6); no value means the hosted endpoint. */
export function parseCarbon(text: string | undefined): CarbonTarget {
  if (text === undefined || text === '') {
    return { host: HOSTED_CARBON_HOST, port: HOSTED_CARBON_PORT, hosted: true };
  }
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text.trim());
  const port = match ? Number(match[2] ?? CARBON_PLAINTEXT_PORT) : NaN;
  if (!match || port < 1 || port > 65535) {
    throw new CarbonError(`--carbon must be HOST:PORT or HOST (port 2003), e.g. 127.0.0.1:2003, got '${text}'`);
  }
  return { host: match[1]!, port, hosted: isHostedCarbonHost(match[1]!) };
}

export function isHostedCarbonHost(host: string): boolean {
  return host.toLowerCase() === HOSTED_CARBON_HOST;
}

export function formatCarbon(target: CarbonTarget): string {
  return `${target.host}:${target.port}`;
}

const PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const KEY = /^[A-Za-z0-9_-]{4,200}$/;

/** Checks the shape of an API key without ever echoing it. */
export function checkKeyShape(key: string): string | undefined {
  return KEY.test(key)
    ? undefined
    : 'the API key must be at least 4 characters of letters, digits, - and _ (it becomes the first part of metric names on the hosted endpoint)';
}

/**
 * The metric prefix of an agent's config: `KEY.<prefix>` for the hosted endpoint, `<prefix>` elsewhere.
 * `prefix` defaults to the agent's name.
 */
export function metricPrefix(target: CarbonTarget, agent: string, key: string | undefined, prefix?: string): string {
  const base = prefix ?? agent;
  if (!PREFIX.test(base)) {
    throw new CarbonError(`--prefix must be dot-separated words of letters, digits, - and _, got '${base}'`);
  }
  if (!target.hosted) return base;
  if (!key) {
    throw new CarbonError(
      'the hosted carbon endpoint routes metrics by API key: pass --api-key (or set ALERTFORM_API_KEY), or send to your own carbon with --carbon HOST:PORT, which needs no key (alertform serve: the carbon of the Graphite it reads)',
    );
  }
  return `${key}.${base}`;
}
