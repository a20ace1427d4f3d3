import { isIPv6 } from 'node:net';
import { ipv6Words } from '../net/address-class.js';
import { createRateWindow } from './rate-window.js';

/** Settings of a FailureLimiter. */
export interface FailureLimitOptions {
  /** Failed authentications one client (clientKeyOf) may make per window before it is refused. Default 20. */
  maxFailures?: number;
  /** Default 60,000 ms. */
  windowMs?: number;
  /** Addresses remembered at once; the oldest are forgotten first. Default 10,000. */
  maxAddresses?: number;
  now?: () => number;
}

/**
 * The client a failure counts against: an IPv4 address as it is, an IPv6 address by its /64 prefix. A host is
 * usually given a whole /64 and may take any address in it (privacy addresses rotate by themselves): counted per
 * address, one guesser would get 2^64 windows. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) counts as its IPv4 address.
 */
export function clientKeyOf(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  return `${ipv6Words(address)
    .slice(0, 4)
    .map((word) => word.toString(16))
    .join(':')}::/64`;
}

/** Counts failed authentications per client (clientKeyOf: an IPv4 address, an IPv6 /64), to slow down key guessing. */
export interface FailureLimiter {
  /** Seconds the address must wait before trying again, or 0 when it may try now. */
  retryAfterSeconds(address: string): number;
  recordFailure(address: string): void;
}

/**
 * A fixed window per client (rate-window.ts): after `maxFailures` 401s within `windowMs`, the client's requests with
 * a wrong key (or none) are refused (429) until the window ends; `authenticate` lets a right key through whatever
 * the count.
 */
export function createFailureLimiter(options: FailureLimitOptions = {}): FailureLimiter {
  const window = createRateWindow({
    limit: options.maxFailures ?? 20,
    windowMs: options.windowMs ?? 60_000,
    maxKeys: options.maxAddresses ?? 10_000,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    retryAfterSeconds: (address) => window.retryAfterSeconds(clientKeyOf(address)),
    recordFailure: (address) => window.record(clientKeyOf(address)),
  };
}
