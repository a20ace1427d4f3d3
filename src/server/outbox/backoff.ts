/** How the outbox retries: exponential backoff with jitter, capped, until a delivery is `maxAgeMs` old. */
export interface RetryPolicy {
  /** The wait before the first retry, ms (before jitter). Default 1 s. */
  firstDelayMs: number;
  /** The longest wait between two attempts, ms (before jitter). Default 10 minutes. */
  maxDelayMs: number;
  /** How long after its creation a delivery keeps being tried before it is dead-lettered, ms. Default 24 h. */
  maxAgeMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { firstDelayMs: 1_000, maxDelayMs: 10 * 60_000, maxAgeMs: 24 * 3_600_000 };

/**
 * The wait after the `failures`-th failed attempt (1 = the first): firstDelay * 2^(failures-1), capped at maxDelay,
 * then "equal jitter": half of it fixed, half random. The fixed half keeps a lower bound (a flapping endpoint is not
 * hammered); the random half spreads the retries of many deliveries that failed together (an outage's end).
 */
export function computeRetryDelay(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 40);
  const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** exponent);
  return Math.round(delay / 2 + random() * (delay / 2));
}

/**
 * A Retry-After header in ms: delay-seconds (`120`) or an HTTP date (a wait from `now`, never negative); null when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** What to do with a delivery after a failed attempt. */
export type RetryDecision = { kind: 'retry'; at: number } | { kind: 'dead' };

/**
 * After a failed attempt at `now`: dead-letter when the failure cannot be helped by trying again or the delivery
 * has reached its maximum age; otherwise the time of the next attempt. A Retry-After from the service wins over
 * the backoff (it is honoured even when it ends past the deadline: one last attempt then). A backoff that would
 * end past the deadline is cut to it, so the last attempt happens at the deadline rather than never.
 */
export function decideRetry(input: {
  createdAt: number;
  failures: number;
  retryable: boolean;
  retryAfterMs: number | null;
  now: number;
  policy: RetryPolicy;
  random?: () => number;
}): RetryDecision {
  const deadline = input.createdAt + input.policy.maxAgeMs;
  if (!input.retryable || input.now >= deadline) return { kind: 'dead' };
  if (input.retryAfterMs !== null) return { kind: 'retry', at: input.now + input.retryAfterMs };
  const delay = computeRetryDelay(input.failures, input.policy, input.random);
  return { kind: 'retry', at: Math.min(input.now + delay, deadline) };
}
