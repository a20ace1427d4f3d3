import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work written once as a generator that yields at points where it may pause, run two ways: to the end at once
 * (`runToEnd`), or in slices of a few milliseconds that let the event loop in between (`runInSlices`). The plan
 * loads its definitions in slices while the server's pages are read: a load done in one piece would hold every page
 * that arrives meanwhile, and the two would take the sum of their times instead of the longer one.
 */
export type Steps<T> = Generator<void | Promise<unknown>, T, unknown>;

/** Runs the steps at once; they must not wait for anything (yield a promise). */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (next.value) throw new Error('these steps wait for a promise: run them in slices');
  }
}

/** About a page's round trip on a local server: long enough to be cheap, short enough not to hold a page back. */
const SLICE_MS = 1;

export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  let answer: unknown;
  for (;;) {
    const next = steps.next(answer);
    answer = undefined;
    if (next.done) return next.value;
    if (next.value) {
      // A step that waits (a file parsed on another thread): its value is the answer to that yield.
      answer = await next.value;
      sliceStart = performance.now();
    } else if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
