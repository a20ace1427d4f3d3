/** Settings of a FailureLimiter. */
export interface FailureLimitOptions {
  /** Failed authentications one address may make per window before it is refused. Default 20. */
  maxFailures?: number;
  /** Default 60,000 ms. */
  windowMs?: number;
  /** Addresses remembered at once; the oldest are forgotten first. Default 10,000. */
  maxAddresses?: number;
  now?: () => number;
}

/** Counts failed authentications per client address, to slow down key guessing. */
export interface FailureLimiter {
  /** Seconds the address must wait before trying again, or 0 when it may try now. */
  retryAfterSeconds(address: string): number;
  recordFailure(address: string): void;
}

/**
 * A fixed window per address: after `maxFailures` 401s within `windowMs`, the address's requests with a wrong key
 * (or none) are refused (429) until the window ends; `authenticate` lets a right key through whatever the count.
 * Memory stays bounded: the map is insertion-ordered, so the oldest windows are dropped first.
 */
export function createFailureLimiter(options: FailureLimitOptions = {}): FailureLimiter {
  const maxFailures = options.maxFailures ?? 20;
  const windowMs = options.windowMs ?? 60_000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; failures: number }>();
  const current = (address: string) => {
    const window = windows.get(address);
    if (window && now() - window.start >= windowMs) {
      windows.delete(address);
      return undefined;
    }
    return window;
  };
  return {
    retryAfterSeconds(address) {
      const window = current(address);
      if (!window || window.failures < maxFailures) return 0;
      return Math.max(1, Math.ceil((window.start + windowMs - now()) / 1000));
    },
    recordFailure(address) {
      const window = current(address);
      if (window) {
        window.failures += 1;
        return;
      }
      if (windows.size >= maxAddresses) windows.delete(windows.keys().next().value!);
      windows.set(address, { start: now(), failures: 1 });
    },
  };
}
