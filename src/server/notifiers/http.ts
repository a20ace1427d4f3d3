import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { refuseAddress, type DestinationPolicy } from '../net/destination-policy.js';
import { guardedLookup } from '../net/guarded-lookup.js';
import { parseRetryAfter } from '../outbox/backoff.js';
import { DeliveryError } from './delivery.js';
import { signatureHeaders, type ChannelSigningKeys } from './webhook-signing.js';
import { VERSION } from '../../version.js';

/** Every notifier's requests say who sends them, so a receiver's logs and firewall can tell. */
export const USER_AGENT = `alertform/${VERSION}`;

export interface PostOptions {
  headers?: Record<string, string>;
  signal: AbortSignal;
  /**
   * For destinations a tenant chose (webhook, Slack, VictorOps URLs): the addresses they may reach, checked on
   * the resolved address at connect time. Absent for the operator's own endpoints (PagerDuty, OpsGenie URLs).
   */
  policy?: DestinationPolicy;
  /** The channel's signing secrets: the exact body sent is signed, with the time of this attempt (webhooks). */
  signingKeys?: ChannelSigningKeys;
}

/**
 * POSTs a JSON body (always built with JSON.stringify). Redirects are not followed: a 3xx is a failure (a
 * redirect would re-send the body wherever the far side points, private addresses included). Fails with a
 * DeliveryError that says the class of failure (HTTP 4xx, redirect refused, destination refused, timed out),
 * never the URL (webhook URLs and keys are secrets) nor the far side's exact answer (which would make
 * last_error a port scanner).
 */
export async function postJson(service: string, url: string, body: unknown, options: PostOptions): Promise<void> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a lookup, so it is judged here; names are judged by the lookup.
  if (options.policy && isIP(host) !== 0) {
    const refusal = refuseAddress(options.policy, host, host);
    if (refusal) throw new DeliveryError(`${service} destination refused: ${refusal}`, false);
  }
  let status: number;
  let retryAfter: string | undefined;
  try {
    const payload = JSON.stringify(body);
    const signature: Record<string, string> = options.signingKeys === undefined ? {} : signatureHeaders(options.signingKeys, payload);
    ({ status, retryAfter } = await send(target, payload, { ...options, headers: { ...options.headers, ...signature } }));
  } catch (error) {
    throw networkError(service, error);
  }
  if (status >= 300 && status < 400) throw new DeliveryError(`${service} redirect refused`, false);
  if (status >= 400) {
    const retryable = status >= 500 || status === 429 || status === 408;
    // Retry-After (seconds or an HTTP date) tells the outbox when to try again.
    throw new DeliveryError(`${service} answered HTTP ${Math.floor(status / 100)}xx`, retryable, parseRetryAfter(retryAfter));
  }
}

const agents = new WeakMap<DestinationPolicy, { http: HttpAgent; https: HttpsAgent }>();
const trusted = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/** Keep-alive agents per policy, whose every new connection goes through the policy's lookup. */
function agentsFor(policy: DestinationPolicy | undefined) {
  if (!policy) return trusted;
  let pair = agents.get(policy);
  if (!pair) {
    const lookup = guardedLookup(policy);
    pair = { http: new HttpAgent({ keepAlive: true, lookup }), https: new HttpsAgent({ keepAlive: true, lookup }) };
    agents.set(policy, pair);
  }
  return pair;
}

/**
 * Limits within an attempt's own timeout: a far side that does not accept the connection, or accepts and does not
 * answer, fails the attempt quickly and frees its slot (another tenant's page may be waiting for it).
 */
export const HTTP_LIMITS = { connectTimeoutMs: 3_000, answerTimeoutMs: 5_000 };

/** One POST; resolves with the status (and any Retry-After) once the (discarded) response body has been read. */
function send(target: URL, payload: string, options: PostOptions): Promise<{ status: number; retryAfter: string | undefined }> {
  const https = target.protocol === 'https:';
  const pair = agentsFor(options.policy);
  return new Promise<{ status: number; retryAfter: string | undefined }>((resolveSend, rejectSend) => {
    const timedOut = () => Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    // Until connected, then until the answer's headers: each limit replaces the one before. Not connecting in time
    // reads as any other failure to connect ("could not be reached"), not as a timeout that would tell it resolved.
    let timer = setTimeout(() => request.destroy(new Error('connect timed out')), HTTP_LIMITS.connectTimeoutMs);
    const settle = () => clearTimeout(timer);
    const resolve = (value: { status: number; retryAfter: string | undefined }) => {
      settle();
      resolveSend(value);
    };
    const reject = (error: unknown) => {
      settle();
      rejectSend(error);
    };
    const request = (https ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        agent: https ? pair.https : pair.http,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'user-agent': USER_AGENT, ...options.headers },
        signal: options.signal,
      },
      (response: IncomingMessage) => {
        // Read and drop the body, so the connection can be reused; its content is never shown.
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.on('socket', (socket) => {
      const connected = () => {
        clearTimeout(timer);
        timer = setTimeout(() => request.destroy(timedOut()), HTTP_LIMITS.answerTimeoutMs);
      };
      // A reused keep-alive socket is connected already.
      if (socket.connecting) socket.once(https ? 'secureConnect' : 'connect', connected);
      else connected();
    });
    request.on('response', () => clearTimeout(timer));
    request.end(payload);
  });
}

/**
 * A DeliveryError for a request that got no answer: the class of failure only (messages name hosts). A host name
 * that does not resolve, resolves to a refused address, or refuses the connection all read "could not be reached"
 * and are retried alike: otherwise last_error (and whether a delivery is retried) would tell a tenant which names
 * resolve on the server's network, and to what kind of address. IP literals are judged before this, by name.
 */
export function networkError(service: string, error: unknown): DeliveryError {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new DeliveryError(`${service} timed out`, true);
  return new DeliveryError(`${service} could not be reached`, true);
}

/** `base` (which may carry a path, e.g. a proxy prefix) joined with an absolute API path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
