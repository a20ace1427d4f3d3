import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeRetryDelay, decideRetry, DEFAULT_RETRY_POLICY, parseRetryAfter } from '../../../../src/server/outbox/backoff.js';

const policy = { firstDelayMs: 1_000, maxDelayMs: 60_000, maxAgeMs: 3_600_000 };

describe('the retry schedule', () => {
  it('doubles from the first delay up to the cap, with the jitter inside [half, whole]', () => {
    const low = (n: number) => computeRetryDelay(n, policy, () => 0);
    const high = (n: number) => computeRetryDelay(n, policy, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(high)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    expect([1, 2, 3].map(low)).toEqual([500, 1_000, 2_000]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.double({ min: 0, max: 1, noNaN: true }), (failures, r) => {
        const delay = computeRetryDelay(failures, policy, () => r);
        const full = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (failures - 1));
        return delay >= full / 2 && delay <= full;
      }),
    );
  });

  it('keeps trying for 24 h by default: about 150 attempts, the waits never beyond 10 minutes', () => {
    let now = 0;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const decision = decideRetry({ createdAt: 0, failures: attempts, retryable: true, retryAfterMs: null, now, policy: DEFAULT_RETRY_POLICY, random: () => 1 });
      if (decision.kind === 'dead') break;
      expect(decision.at - now).toBeLessThanOrEqual(10 * 60_000);
      now = decision.at;
    }
    expect(now).toBe(DEFAULT_RETRY_POLICY.maxAgeMs);
    expect(attempts).toBeGreaterThan(140);
    expect(attempts).toBeLessThan(160);
  });

  it('dead-letters a rejected request at once, and any failure at or past the maximum age', () => {
    expect(decideRetry({ createdAt: 0, failures: 1, retryable: false, retryAfterMs: null, now: 10, policy })).toEqual({ kind: 'dead' });
    expect(decideRetry({ createdAt: 0, failures: 9, retryable: true, retryAfterMs: null, now: policy.maxAgeMs, policy })).toEqual({ kind: 'dead' });
    // A backoff that would end past the deadline is cut to it: one last attempt at the deadline.
    expect(decideRetry({ createdAt: 0, failures: 9, retryable: true, retryAfterMs: null, now: policy.maxAgeMs - 5, policy, random: () => 1 })).toEqual({ kind: 'retry', at: policy.maxAgeMs });
  });

  it("honours the service's Retry-After over the backoff", () => {
    expect(decideRetry({ createdAt: 0, failures: 1, retryable: true, retryAfterMs: 30_000, now: 1_000, policy })).toEqual({ kind: 'retry', at: 31_000 });
  });

  it('reads Retry-After as seconds or as an HTTP date, and ignores anything else', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
