import { pino, type Logger } from 'pino';

/**
 * Log lines waiting for a slow reader of the log (a stalled pipe) before new ones are dropped: 16 MB, about
 * 100,000 request lines. A synchronous log would stall every request instead.
 */
const MAX_WAITING_BYTES = 16 * 1024 * 1024;

/** How long closing waits for the log to be written out before giving up on a reader that never reads. */
const FLUSH_TIMEOUT_MS = 5_000;

/**
 * The server's logger: pino's JSON lines on file descriptor `fd` (stderr by default), written asynchronously.
 * A line is handed to the kernel at once when no write is in flight; lines logged while one is in flight are
 * written together after it (so under load one write carries many lines, and a slow reader of the log never stalls
 * a request). What a crash can lose is bounded:
 * - a normal stop writes everything out before the process ends (startServer's close awaits `flushLog`);
 * - an uncaught exception or process.exit writes what is waiting synchronously at exit (pino registers that for
 *   an asynchronous destination), the lines of the last write in flight possibly after them;
 * - a SIGKILL (or the OOM killer) loses the lines not yet written: those logged during the one write in flight,
 *   normally well under a millisecond of requests.
 * What is logged is unchanged (the same lines, the same redaction).
 */
export function createServerLogger(level: string, fd = 2): Logger {
  // minLength 1 rather than 0: the same writes, and flush() then waits for them to finish (with 0 it returns at once).
  return pino({ level }, pino.destination({ dest: fd, sync: false, minLength: 1, maxLength: MAX_WAITING_BYTES }));
}

/** Resolves once every line logged so far is written (at most FLUSH_TIMEOUT_MS: a reader may never read). */
export function flushLog(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
    timer.unref();
    // fsync of a pipe or a terminal fails (EINVAL) after the write succeeded: the error says nothing was lost.
    logger.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
