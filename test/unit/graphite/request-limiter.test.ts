import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../../src/graphite/request-limiter.js';

describe('the render request limiter', () => {
  it('runs at most the given number of tasks at once, starts the waiting ones in order, and frees a slot on failure', async () => {
    const limit = createLimiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const task = (index: number, fails = false) =>
      limit(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        if (fails) throw new Error(`task ${index} failed`);
        return index;
      });
    const results = [task(0, true), task(1), task(2), task(3), task(4)].map((promise) => promise.catch((error: Error) => error.message));
    while (started.length < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    while (releases.length) releases.shift()!();
    expect(await Promise.all(results)).toEqual(['task 0 failed', 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });
});
