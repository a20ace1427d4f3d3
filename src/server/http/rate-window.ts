/** Settings of a RateWindow. */
export interface RateWindowOptions {
  /** Actions one key may take per window. */
  limit: number;
  windowMs: number;
  /** Keys remembered at once; the oldest windows are forgotten first. Default 10,000. */
  maxKeys?: number;
  now?: () => number;
}

/** Counts actions per key in fixed windows, for limits on what a tenant can make the server do for it. */
export interface RateWindow {
  /** Seconds until the key may act again, or 0 when it may act now. */
  retryAfterSeconds(key: string): number;
  /** Counts one action of the key. */
  record(key: string): void;
}

/**
 * A fixed window per key: after `limit` actions within `windowMs` (from the first), the key waits for the window's
 * end. Memory stays bounded: the map is insertion-ordered, so the oldest windows are dropped first. Per process: a
 * deployment of several servers allows each its own count.
 */
export function createRateWindow(options: RateWindowOptions): RateWindow {
  const { limit, windowMs } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string) => {
    const window = windows.get(key);
    if (window && now() - window.start >= windowMs) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };
  return {
    retryAfterSeconds(key) {
      const window = current(key);
      if (!window || window.count < limit) return 0;
      return Math.max(1, Math.ceil((window.start + windowMs - now()) / 1000));
    },
    record(key) {
      const window = current(key);
      if (window) {
        window.count += 1;
        return;
      }
      if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
      windows.set(key, { start: now(), count: 1 });
    },
  };
}
