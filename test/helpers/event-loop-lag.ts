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

/** What `healthWhile` saw: the work's lag measure, the slowest /healthz answer (ms) and how many were answered. */
export interface HealthMeasure<T> extends LagMeasure<T> {
  slowestMs: number;
  answers: number;
}

/**
 * Asks `${url}/healthz` every 20 ms while `work` runs (each answer must be 200): what another client of the server
 * would have waited, beside the event loop's longest hold.
 */
export async function healthWhile<T>(url: string, work: () => Promise<T>): Promise<HealthMeasure<T>> {
  let running = true;
  let slowestMs = 0;
  let answers = 0;
  let failure: unknown;
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${url}/healthz`);
      if (response.status !== 200) failure ??= new Error(`/healthz answered ${response.status}`);
      await response.arrayBuffer();
      answers += 1;
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const measure = await measureLag(work);
    running = false;
    await probing;
    if (failure) throw failure;
    return { ...measure, slowestMs, answers };
  } finally {
    running = false;
    await probing.catch(() => undefined);
  }
}
