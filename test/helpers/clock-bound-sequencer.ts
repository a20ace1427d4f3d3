import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that wait on the clock: Graphite's 30 s buckets, settle delays, replicas' leases, throttle minutes. Each
 * takes one to three minutes and keeps a small share of a core busy once its Graphite and servers have started
 * (the machine was 90% idle while three of them ran together), so they should run beside the files that use the
 * CPU, not beside each other. Their usual seconds on a 2-core machine (a full run without timings) order them
 * when vitest has no timings yet (a fresh clone, CI).
 */
export const CLOCK_BOUND_FILES: Readonly<Record<string, number>> = {
  'test/integration/stream/stream-fallback.test.ts': 160,
  'test/integration/graphite/window-truth.test.ts': 135,
  'test/reliability/stream-replicas.test.ts': 115,
  'test/reliability/network-faults.test.ts': 70,
  'test/integration/graphite/late-points.test.ts': 70,
  'test/security/stream-prefix-change.test.ts': 67,
  'test/integration/stream/stream-judge.test.ts': 64,
  'test/integration/evaluator/throttle-order.test.ts': 62,
  'test/integration/evaluator/outage-noise.test.ts': 27,
  'test/reliability/escalation-crash.test.ts': 20,
};

/**
 * The other files that take 12 s or more (their seconds in a full run without timings, 2 cores): where vitest has no
 * timings yet (a fresh clone, CI), these start first in their project, not last; unknown, a long file that started
 * near the end left a core idle for its last half minute (82% busy over a fresh clone's run, 95% with timings).
 * Figures that are too high matter too: they slow the order's simulated clock, and the clock-bound files then come
 * up before the ones running have ended (see UNKNOWN_SECONDS).
 */
export const LONG_FILES: Readonly<Record<string, number>> = {
  'test/security/window-first-matching.test.ts': 61,
  'test/browser/console.test.ts': 58,
  'test/security/backtest-cost.test.ts': 41,
  'test/integration/deploy/install-and-start.test.ts': 41,
  'test/integration/package/install.test.ts': 40,
  'test/reliability/faulty-apply.test.ts': 33,
  'test/browser/console-noise.test.ts': 31,
  'test/security/metric-prefix-differential.test.ts': 28,
  'test/security/outbox-fairness.test.ts': 25,
  'test/security/window-glob-cost.test.ts': 20,
  'test/reliability/postgres-failover.test.ts': 18,
  'test/security/delivery-amplification.test.ts': 16,
  'test/reliability/fuzz.test.ts': 16,
  'test/integration/evaluator/replicas.test.ts': 16,
  'test/security/webhook-signature-replay.test.ts': 15,
  'test/reliability/clock-jump.test.ts': 15,
  'test/integration/reconciler/demo.test.ts': 15,
  'test/integration/graphite/render-post.test.ts': 15,
  'test/integration/graphite-functions/same-answers.test.ts': 15,
  'test/integration/agent/collectd-e2e.test.ts': 14,
  'test/integration/ci/gitlab-ci.test.ts': 13,
  'test/integration/server/alert-state.test.ts': 12,
};

/** A file to place: its expected seconds and whether it waits on the clock. */
export interface FileToPlace<T> {
  file: T;
  seconds: number;
  clockBound: boolean;
  /** The file's project: a worker that does not isolate files takes the next file only if it is of its project. */
  group?: string;
}

/**
 * The order to hand files to a pool of `workers` so that at most `maxClockBound` clock-bound files run at once and
 * the rest of the workers run the others: a list schedule simulated on the expected seconds, longest first in each
 * kind, answered as the order of the simulated starts. The real pool starts the next file of the list whenever a
 * worker is free, so the cap holds as long as the files take about their expected time; at the end, with only
 * clock-bound files left, they start as workers free up.
 */
export function clockAwareOrder<T>(files: readonly FileToPlace<T>[], workers: number, maxClockBound: number): T[] {
  const longestFirst = (a: FileToPlace<T>, b: FileToPlace<T>) => b.seconds - a.seconds;
  const clock = files.filter((f) => f.clockBound).sort(longestFirst);
  // The other files project by project, longest first within each (a worker that keeps its modules between files is
  // kept only when the next file in line is of its own project), and the projects by their longest file: the long
  // files start early, the short ones fill the end.
  const longest = new Map<string | undefined, number>();
  for (const f of files) if (!f.clockBound) longest.set(f.group, Math.max(longest.get(f.group) ?? 0, f.seconds));
  const other = files
    .filter((f) => !f.clockBound)
    .sort((a, b) => longest.get(b.group)! - longest.get(a.group)! || (a.group ?? '').localeCompare(b.group ?? '') || longestFirst(a, b));
  const order: T[] = [];
  const running: { ends: number; clockBound: boolean }[] = [];
  let now = 0;
  while (clock.length > 0 || other.length > 0) {
    while (running.length < workers) {
      const clockRunning = running.filter((r) => r.clockBound).length;
      // Past the cap a clock-bound file waits for one to end, unless nothing else is left to start or running.
      const takeClock = clock.length > 0 && (clockRunning < maxClockBound || (other.length === 0 && running.length === 0));
      const next = takeClock ? clock.shift() : other.shift();
      if (next === undefined) break;
      order.push(next.file);
      running.push({ ends: now + next.seconds, clockBound: next.clockBound });
    }
    // The next worker to free up (in a simulation every started file ends).
    running.sort((a, b) => a.ends - b.ends);
    now = running.shift()?.ends ?? now;
  }
  return order;
}

/** How many clock-bound files run at once (the others share the rest of the workers). */
const MAX_CLOCK_BOUND = 3;
/**
 * The seconds of a file with no timing yet, neither clock-bound nor long: its project's mean in a full run. With one
 * figure for all (5 s), the order took the 143 unit files for 715 s (they take 74) and the integration files for
 * half again their time: in a run without timings the simulated clock ran slow, the clock-bound files came up
 * early, six ran at once and the machine was 55-65% busy for a minute (91% over the run, against 95% with timings).
 */
const UNKNOWN_SECONDS: Readonly<Record<string, number>> = { unit: 0.5, store: 3.7, integration: 3.2, security: 3.8, reliability: 5.7, browser: 9.4 };
const UNKNOWN_PROJECT_SECONDS = 3.5;

/**
 * vitest's own order runs project by project, longest first within each: the clock-bound files of the integration
 * project then all start together and leave the machine idle for minutes. This order interleaves them with the
 * rest (see clockAwareOrder), and keeps the rest project by project: vitest hands a worker that does not isolate
 * files the next file in line only if it is of the worker's project, and starts a new worker otherwise. A file's
 * seconds are this machine's last run (vitest's cache) when it has one.
 */
export default class ClockBoundSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const workers = Math.max(1, this.ctx.config.maxWorkers);
    const placed = files.map((spec) => {
      const name = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getTestSpecificationResult(spec);
      const clockBound = CLOCK_BOUND_FILES[name];
      const seconds = cached && !cached.failed ? cached.duration / 1000 : (clockBound ?? LONG_FILES[name] ?? UNKNOWN_SECONDS[spec.project.name] ?? UNKNOWN_PROJECT_SECONDS);
      return { file: spec, seconds, clockBound: clockBound !== undefined, group: spec.project.name };
    });
    return clockAwareOrder(placed, workers, Math.min(MAX_CLOCK_BOUND, Math.max(1, workers - 1)));
  }
}
