import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work written once as a generator that yields at points where it may pause, run two ways: to the end at once
 * (`runToEnd`), or in slices of a few milliseconds that let the event loop in between (`runInSlices`). The plan
 * loads its definitions in slices while the server's pages are read: a load done in one piece would hold every page
 * that arrives meanwhile, and the two would take the sum of their times instead of the longer one.
 */
export type Steps<T> = Generator<void, T, void>;

export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** About a page's round trip on a local server: long enough to be cheap, short enough not to hold a page back. */
const SLICE_MS = 1;

export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
