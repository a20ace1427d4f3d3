/**
 * pino's JSON lines as lines for a person at a terminal: `14:03:07.120 WARN  heartbeat ping failed  error="..."`.
 * Our thirty lines rather than pino-pretty: it brings a dozen packages and a worker thread (pino's transports)
 * for what is one JSON.parse and a join per line, and the asynchronous, batched destination (log-destination.ts)
 * stays as it is. The line is formatted after pino has redacted it, so a pretty line holds no more than the JSON one.
 */
const LEVELS: Record<string, { name: string; color: number }> = {
  trace: { name: 'TRACE', color: 90 },
  debug: { name: 'DEBUG', color: 90 },
  info: { name: 'INFO', color: 32 },
  warn: { name: 'WARN', color: 33 },
  error: { name: 'ERROR', color: 31 },
  fatal: { name: 'FATAL', color: 31 },
};
/** pino's level numbers, for a line written by a logger with pino's default formatting. */
const NUMBERED: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Said by the line's start (time, level, message) or of no use to a person (pid, hostname). */
const SHOWN_ELSEWHERE = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/** One JSON log line (with its newline) as a readable line; a line that is not JSON is passed on as it is. */
export function prettyLogLine(line: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVELS[NUMBERED[entry.level as number] ?? String(entry.level)] ?? { name: String(entry.level), color: 0 };
  const name = level.name.padEnd(5);
  const date = typeof entry.time === 'number' || typeof entry.time === 'string' ? new Date(entry.time) : undefined;
  const time = date && !Number.isNaN(date.getTime()) ? clock(date) : '';
  const fields = Object.entries(entry).filter(([key]) => !SHOWN_ELSEWHERE.has(key));
  const stack = (entry.err as { stack?: unknown } | undefined)?.stack;
  const rest = fields.map(([key, value]) => `${key}=${key === 'err' ? errorSummary(value) : fieldValue(value)}`).join(' ');
  return (
    `${time} ${color ? `\u001b[${level.color}m${name}\u001b[39m` : name} ${printable(String(entry.msg ?? ''))}${rest ? `  ${rest}` : ''}\n` +
    (typeof stack === 'string' ? stack.split('\n').map((frame) => `    ${printable(frame)}\n`).join('') : '')
  );
}

/** Local wall-clock time to the millisecond: the terminal's reader knows the date. */
function clock(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** A word as it is; anything else (spaces, quotes, control characters a tenant may have put in a name) quoted as JSON. */
function fieldValue(value: unknown): string {
  if (typeof value === 'string' && /^[\w.,:/@+%-]+$/.test(value)) return value;
  return JSON.stringify(value) ?? String(value);
}

function errorSummary(error: unknown): string {
  const { type, message } = (error ?? {}) as { type?: unknown; message?: unknown };
  return fieldValue(`${typeof type === 'string' ? `${type}: ` : ''}${String(message ?? '')}`);
}

/** Control characters written out as escapes, so that no logged text can move the cursor or recolor the terminal. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\n/g, '\\n');
}
