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
 * Lines logged in one turn of the event loop are written together, at the end of that turn (setImmediate), by one
 * asynchronous write (pino's SonicBoom, sync: false): under load one write carries the lines of many requests,
 * and a slow reader of the log never stalls a request (measured: a write per line, synchronous or not, was 5% of a
 * cached read's CPU). What a crash can lose is bounded:
 * - a normal stop writes everything out before the process ends (startServer's close awaits `flushLog`);
 * - an uncaught exception or process.exit writes what is waiting synchronously at exit, the lines of the last
 *   write in flight possibly after them;
 * - a SIGKILL (or the OOM killer) loses the lines not yet written: those of the current turn of the event loop
 *   and of the one write in flight, normally well under a millisecond of requests.
 * What is logged is unchanged (the same lines, the same redaction).
 */
export function createServerLogger(level: string, fd = 2): Logger {
  // minLength 1 rather than 0: the same writes, and flush() then waits for them to finish (with 0 it returns at once).
  const destination = pino.destination({ dest: fd, sync: false, minLength: 1, maxLength: MAX_WAITING_BYTES });
  let pending = '';
  let scheduled = false;
  const writePending = () => {
    scheduled = false;
    if (pending === '') return;
    const lines = pending;
    pending = '';
    destination.write(lines);
  };
  // At exit (process.exit, an uncaught exception) there is no next turn: hand over what waits and write it now.
  process.on('exit', () => {
    writePending();
    try {
      destination.flushSync();
    } catch {
      // Already closed, or a write in flight it cannot wait for: nothing more can be done at exit.
    }
  });
  const stream = {
    write(line: string) {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(writePending);
      }
    },
    flush(done: (error?: Error) => void) {
      writePending();
      destination.flush(done);
    },
  };
  return pino({ level }, stream);
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
