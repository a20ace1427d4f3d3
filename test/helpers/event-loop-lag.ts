import { get } from 'node:http';
import { processThreadCpuMs } from './proc-cpu.js';

/**
 * How long a piece of work held this process's event loop, counted in this thread's CPU time rather than by the
 * clock. The servers under test run in the test's process, so a handler that holds the loop shows here as it would
 * to every other client of the server. The clock would also count the time this process waited for a core: on a
 * busy machine (the rest of the run beside it) a 300 ms hold can take a second by the clock, and a bound on it would
 * fail for the machine rather than for the code. The thread's CPU is what a quiet machine's clock would show for the
 * same hold. It does not see a loop blocked in a synchronous call that sleeps (a lock, a child process): no code
 * under these tests does that.
 */

/** The main thread's CPU time so far, ms (user and system: reading a file is the thread's work too). */
export function threadCpuMs(): number {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** What `measureLag` saw: the work's CPU on this thread and the longest hold of the event loop. */
export interface LagMeasure<T> {
  result: T;
  /** This thread's CPU time while the work ran, ms. */
  cpuMs: number;
  /** The most CPU this thread spent between two turns of a 10 ms timer, ms: the longest the loop was held. */
  maxHoldMs: number;
}

/** Runs `work` while a 10 ms timer notes this thread's CPU at each of its turns. */
export async function measureLag<T>(work: () => Promise<T>): Promise<LagMeasure<T>> {
  const startedCpu = threadCpuMs();
  let lastTurn = startedCpu;
  let maxHoldMs = 0;
  const turn = () => {
    const now = threadCpuMs();
    maxHoldMs = Math.max(maxHoldMs, now - lastTurn);
    lastTurn = now;
  };
  const timer = setInterval(turn, 10);
  try {
    const result = await work();
    turn();
    return { result, cpuMs: threadCpuMs() - startedCpu, maxHoldMs };
  } finally {
    clearInterval(timer);
  }
}

/** What `healthWhile` saw: the work's lag measure, the longest wait for a /healthz answer and how many came. */
export interface HealthMeasure<T> extends LagMeasure<T> {
  /** The most CPU this thread spent while one /healthz request waited for its answer, ms. */
  slowestCpuMs: number;
  answers: number;
}

/**
 * Asks `${url}/healthz` every 20 ms while `work` runs (each answer must be 200): what another client of an
 * in-process server would have waited, counted as the CPU this thread spent before the answer came (the clock's
 * wait on a quiet machine), beside the event loop's longest hold.
 */
export async function healthWhile<T>(url: string, work: () => Promise<T>): Promise<HealthMeasure<T>> {
  let running = true;
  let slowestCpuMs = 0;
  let answers = 0;
  let failure: unknown;
  const probing = (async () => {
    while (running) {
      const started = threadCpuMs();
      const response = await fetch(`${url}/healthz`);
      if (response.status !== 200) failure ??= new Error(`/healthz answered ${response.status}`);
      await response.arrayBuffer();
      answers += 1;
      slowestCpuMs = Math.max(slowestCpuMs, threadCpuMs() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const measure = await measureLag(work);
    running = false;
    await probing;
    if (failure) throw failure;
    return { ...measure, slowestCpuMs, answers };
  } finally {
    running = false;
    await probing.catch(() => undefined);
  }
}

/** What `servedHealthWhile` saw of a server in a process of its own. */
export interface ServedHealthMeasure<T> {
  result: T;
  /** The most CPU the server's main thread spent while one /healthz request waited for its answer, ms. */
  slowestCpuMs: number;
  /** All the CPU the server's main thread spent while `work` ran, ms. */
  cpuMs: number;
  /** /healthz requests that failed or answered other than 200 (a 10 s wait counts as a failure). */
  failures: number;
}

/**
 * `healthWhile` for a server in a child process: asks its /healthz every `everyMs` while `work` runs, each on a
 * connection of its own (a kept-alive one may be closed by the server just as it is reused), and counts the CPU the
 * child's main thread spent before each answer came, for the same reason as above.
 */
export async function servedHealthWhile<T>(server: { url: string; pid: number }, work: () => Promise<T>, everyMs = 20): Promise<ServedHealthMeasure<T>> {
  const cpu = () => processThreadCpuMs(server.pid);
  const startedCpu = cpu();
  let running = true;
  let slowestCpuMs = 0;
  let failures = 0;
  const probing = (async () => {
    while (running) {
      const started = cpu();
      if (!(await healthzOnce(server.url))) failures += 1;
      slowestCpuMs = Math.max(slowestCpuMs, cpu() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    const result = await work();
    return { result, slowestCpuMs, cpuMs: cpu() - startedCpu, failures };
  } finally {
    running = false;
    await probing;
  }
}

/** One GET /healthz on a fresh connection: whether it answered 200 within 10 s. */
function healthzOnce(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get(`${url}/healthz`, { agent: false, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode === 200));
      response.on('error', () => resolve(false));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', () => resolve(false));
  });
}
