import { describe, expect, it } from 'vitest';
import { createRateWindow } from '../../../../src/server/http/rate-window.js';

describe('a rate window', () => {
  it('lets `limit` actions through per window and key, then says how long to wait', () => {
    let now = 0;
    const window = createRateWindow({ limit: 2, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 2; i += 1) {
      expect(window.retryAfterSeconds('a')).toBe(0);
      window.record('a');
    }
    expect(window.retryAfterSeconds('a')).toBe(60);
    expect(window.retryAfterSeconds('b')).toBe(0);
    now = 59_001;
    expect(window.retryAfterSeconds('a')).toBe(1);
    now = 60_000;
    expect(window.retryAfterSeconds('a')).toBe(0);
  });

  it('forgets the oldest keys first beyond maxKeys', () => {
    const window = createRateWindow({ limit: 1, windowMs: 60_000, maxKeys: 2, now: () => 0 });
    for (const key of ['a', 'b', 'c']) window.record(key);
    expect(window.retryAfterSeconds('a')).toBe(0);
    expect(window.retryAfterSeconds('c')).toBe(60);
  });
});
