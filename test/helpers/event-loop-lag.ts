import { monitorEventLoopDelay } from 'node:perf_hooks';

/** What `measureLag` saw: the work's wall time and the longest the event loop was held meanwhile, ms. */
export interface LagMeasure<T> {
  result: T;
  ms: number;
  maxLagMs: number;
}

/**
 * Runs `work` while sampling this process's event-loop delay (every 10 ms). The servers under test run in the
 * test's process, so a handler that holds the loop shows here as it would to every other client of the server.
 */
export async function measureLag<T>(work: () => Promise<T>): Promise<LagMeasure<T>> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, maxLagMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
