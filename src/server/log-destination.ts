import { isatty } from 'node:tty';
import { pino, type Logger, type LoggerOptions } from 'pino';
import { prettyLogLine } from './log-pretty.js';

/**
 * The server's log line: the level by name (`"level":"info"`) and the time in ISO 8601 UTC
 * (`"time":"2026-11-27T14:03:07.120Z"`), which Loki, journald's readers and a person all read without a table of
 * pino's level numbers or a conversion of epoch milliseconds.
 */
export const SERVER_LOG_OPTIONS = {
  formatters: { level: (label: string) => ({ level: label }) },
  timestamp: pino.stdTimeFunctions.isoTime,
} satisfies LoggerOptions;

/** `auto`: readable lines when the log goes to a terminal (a person), JSON lines otherwise (journald, a collector). */
export type LogFormat = 'auto' | 'pretty' | 'json';

/**
 * Log lines waiting for a slow reader of the log (a stalled pipe) before new ones are dropped: 16 MB, about
 * 100,000 request lines. A synchronous log would stall every request instead.
 */
const MAX_WAITING_BYTES = 16 * 1024 * 1024;

/**
 * How long a line may wait to be written with the next ones, ms. One write per turn of the event loop still cost
 * 5% of a cached read's CPU (queueing a write to the thread pool wakes a thread); one per 10 ms costs next to nothing,
 * and 10 ms is all a reader of the log ever waits for a line.
 */
const BATCH_MS = 10;

/** The most characters handed to one write: SonicBoom's own maximum (maxWrite, 16 KiB). */
const CHUNK = 16 * 1024;

/** How long closing waits for the log to be written out before giving up on a reader that never reads. */
const FLUSH_TIMEOUT_MS = 5_000;

/**
 * The server's logger: pino's JSON lines on file descriptor `fd` (stderr by default), written asynchronously, or
 * the same lines made readable (log-pretty.ts) with `format` pretty, or auto on a terminal.
 * Lines logged within 10 ms are written together by one asynchronous write (pino's SonicBoom, sync: false): under
 * load one write carries the lines of many requests, and a slow reader of the log never stalls a request (measured:
 * a write per line, synchronous or not, was 5% of a cached read's CPU). What a crash can lose is bounded:
 * - a normal stop writes everything out before the process ends (startServer's close awaits `flushLog`);
 * - an uncaught exception or process.exit writes what is waiting synchronously at exit; only the one write in
 *   flight (at most 16 KiB, about 150 request lines) may land after it or, with a slow reader, be cut short;
 * - a SIGKILL (or the OOM killer) loses the lines not yet written: those of the last 10 ms and of the one write
 *   in flight.
 * What is logged is unchanged (the same lines, the same redaction).
 */
export function createServerLogger(level: string, options: { format?: LogFormat; fd?: number } = {}): Logger {
  const fd = options.fd ?? 2;
  const terminal = isatty(fd);
  const pretty = options.format === 'pretty' || (options.format === 'auto' && terminal);
  const color = pretty && terminal && process.env.NO_COLOR === undefined;
  // minLength 1 rather than 0: the same writes, and flush() then waits for them to finish (with 0 it returns at once).
  const destination = pino.destination({ dest: fd, sync: false, minLength: 1, maxLength: MAX_WAITING_BYTES });
  // Lines waiting for the next write, in chunks of at most CHUNK characters: SonicBoom writes one chunk per system
  // call, and at exit the chunk in flight is the only one that can be cut short.
  let waiting: string[] = [];
  let chunk = '';
  let scheduled = false;
  const writePending = () => {
    scheduled = false;
    if (chunk !== '') waiting.push(chunk);
    const chunks = waiting;
    waiting = [];
    chunk = '';
    for (const text of chunks) destination.write(text);
  };
  // At exit (process.exit, an uncaught exception) no timer fires: hand over what waits and write it now.
  process.on('exit', () => {
    writePending();
    try {
      destination.flushSync();
    } catch {
      // Already closed, or the reader is gone: nothing more can be done at exit.
    }
  });
  const stream = {
    write(json: string) {
      const line = pretty ? prettyLogLine(json, color) : json;
      if (chunk.length + line.length > CHUNK && chunk !== '') {
        waiting.push(chunk);
        chunk = '';
      }
      chunk += line;
      if (!scheduled) {
        scheduled = true;
        // Unreferenced: a waiting line must not keep the process alive; at exit it is written by the handler above.
        setTimeout(writePending, BATCH_MS).unref();
      }
    },
    flush(done: (error?: Error) => void) {
      writePending();
      destination.flush(done);
    },
  };
  return pino({ level, ...SERVER_LOG_OPTIONS }, stream);
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
