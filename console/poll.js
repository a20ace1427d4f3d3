// @ts-check
/** The one polling loop of the views that refresh themselves: the overview, an alert, the channels, the deliveries. */

/** How long a view waits between the end of one load and the next. */
export const POLL_MS = 5000;

/**
 * Runs `load` and again `everyMs` after each run ends, until `stop()`: a slow server delays the next load instead
 * of piling requests up. `load` shows its own failures; the loop goes on after one. `run()` loads now and restarts
 * the wait (the first load, a changed filter, a finished action).
 * @param {() => Promise<unknown>} load
 * @param {number} [everyMs]
 * @returns {{ run: () => Promise<void>, stop: () => void, readonly stopped: boolean }}
 */
export function poll(load, everyMs = POLL_MS) {
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  async function run() {
    clearTimeout(timer);
    await load();
    if (!stopped) timer = setTimeout(run, everyMs);
  }
  return {
    run,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    get stopped() {
      return stopped;
    },
  };
}
