/**
 * At most `concurrency` render requests in flight; the others wait their turn in order.
 *
 * Hand-written rather than p-limit for a measured reason: p-limit's queue entries (yocto-queue's `Node`, an item that
 * gains a `run` after it is made) have hidden classes that live only as long as some entry does. Between two
 * evaluation cycles the queue is empty, a full collection drops those classes, and the client's request code that
 * inlined the queue was deoptimized ("weak objects" under --trace-deopt) and compiled again at every cycle. Here the
 * waiting list holds plain resolve functions, whose class lives as long as the process.
 */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function createLimiter(concurrency: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < concurrency) active += 1;
    // The slot is handed over by the task that finishes (see below): `active` stays as it is.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}
