import { acceptTimestamp, sampleOf, BAD_PATH_CHARACTER, type CarbonPoint, type InvalidListener, type InvalidReason } from './carbon-point.js';

/**
 * Graphite's plaintext protocol, `path value timestamp\n`, read incrementally over the chunks of one connection.
 *
 * Every byte is untrusted: a line longer than `maxLineBytes` is refused and skipped up to its newline (never
 * buffered past the bound), a malformed line is counted by reason and the parser goes on with the next one. The
 * work is linear in the input: each chunk is decoded once, and the search for the next space is shared between
 * lines (a chunk of many short lines without spaces must not make each line scan to the chunk's end).
 */
export interface PlaintextParserOptions {
  /** Longest line taken, in bytes, without its newline. */
  maxLineBytes: number;
  /** Unix seconds, for carbon's `-1` timestamp (now). Default the system clock. */
  now?: () => number;
  /** Told about each refused line (for a rate-limited log). */
  onInvalid?: InvalidListener;
}

/** Anything but `\n` and space that a path may not hold: when a decoded chunk has none, no line needs the check. */
const SUSPECT_IN_CHUNK = /[\u0000-\u0009\u000b-\u001f\u007f\ufffd]/;
const WHITESPACE = /\s+/;

export class PlaintextParser {
  /** Lines refused, by reason, since the parser was made. */
  readonly invalid = new Map<InvalidReason, number>();
  /** Lines ended (read or refused): a connection that moves this on is not stalling. */
  lines = 0;
  private readonly maxLineBytes: number;
  private readonly now: () => number;
  private readonly onInvalid: InvalidListener | undefined;
  /** The start of a line whose newline has not come yet (at most maxLineBytes). */
  private pending: Buffer | null = null;
  /** Inside a line already refused as too long: drop bytes up to its newline. */
  private skipping = false;
  // Per decoded chunk: its text, whether its lines need the path check, and the next space at or after `space`.
  private text = '';
  private suspect = false;
  private space = -1;

  constructor(options: PlaintextParserOptions) {
    this.maxLineBytes = options.maxLineBytes;
    this.now = options.now ?? (() => Date.now() / 1000);
    this.onInvalid = options.onInvalid;
  }

  /** Reads a chunk; the points of its complete lines are appended to `out`. */
  push(chunk: Buffer, out: CarbonPoint[]): void {
    let body = chunk;
    if (this.skipping) {
      const newline = body.indexOf(10);
      if (newline === -1) return;
      this.skipping = false;
      this.lines += 1;
      body = body.subarray(newline + 1);
    }
    const last = body.lastIndexOf(10);
    if (last === -1) {
      this.keep(body);
      return;
    }
    let complete = body.subarray(0, last + 1);
    if (this.pending !== null) {
      complete = Buffer.concat([this.pending, complete]);
      this.pending = null;
    }
    this.readLines(complete, out);
    this.keep(body.subarray(last + 1));
  }

  /** The connection ended: a last line without a newline is read too. */
  end(out: CarbonPoint[]): void {
    if (this.pending !== null && !this.skipping) {
      const rest = this.pending;
      this.pending = null;
      this.readLines(Buffer.concat([rest, Buffer.from('\n')]), out);
    }
    this.pending = null;
    this.skipping = false;
  }

  /** Bytes buffered for an unfinished line (at most maxLineBytes). */
  get bufferedBytes(): number {
    return this.pending?.length ?? 0;
  }

  private keep(rest: Buffer): void {
    if (rest.length === 0) return;
    const size = (this.pending?.length ?? 0) + rest.length;
    if (size > this.maxLineBytes) {
      const start = this.pending !== null ? Buffer.concat([this.pending, rest.subarray(0, 80)]) : rest.subarray(0, 80);
      this.pending = null;
      this.skipping = true;
      this.refuse('too_long', start.toString('utf8'));
      return;
    }
    // A copy: a slice would pin the whole socket chunk it came from.
    this.pending = this.pending === null ? Buffer.from(rest) : Buffer.concat([this.pending, rest]);
  }

  private readLines(bytes: Buffer, out: CarbonPoint[]): void {
    const text = bytes.toString('utf8');
    this.text = text;
    this.suspect = SUSPECT_IN_CHUNK.test(text);
    this.space = -1;
    // Decoding kept every byte as one character: the text is ASCII, and a line's characters are its bytes.
    const ascii = text.length === bytes.length;
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      let end = newline;
      if (end > start && text.charCodeAt(end - 1) === 13) end -= 1;
      if (end > start) {
        const long = end - start > this.maxLineBytes || (!ascii && (end - start) * 3 > this.maxLineBytes && Buffer.byteLength(text.slice(start, end)) > this.maxLineBytes);
        if (long) this.refuse('too_long', text.slice(start, start + 80));
        else this.readLine(start, end, out);
      }
      start = newline + 1;
      this.lines += 1;
    }
    this.text = '';
  }

  /** The first space at or after `from`; remembered, so that lines without one do not each scan the rest of the chunk. */
  private spaceFrom(from: number): number {
    if (this.space < from) {
      const found = this.text.indexOf(' ', from);
      this.space = found === -1 ? this.text.length : found;
    }
    return this.space;
  }

  private readLine(start: number, end: number, out: CarbonPoint[]): void {
    const text = this.text;
    let path: string;
    let valueText: string;
    let timeText: string;
    const first = this.spaceFrom(start);
    const second = first < end ? this.spaceFrom(first + 1) : end;
    if (first > start && second > first + 1 && second < end - 1 && this.spaceFrom(second + 1) >= end && !this.suspect) {
      path = text.slice(start, first);
      valueText = text.slice(first + 1, second);
      timeText = text.slice(second + 1, end);
    } else {
      // Tabs, repeated spaces, or characters to check: carbon splits on any run of whitespace.
      const line = text.slice(start, end);
      const fields = line.trim().split(WHITESPACE);
      if (fields.length !== 3) return this.refuse('fields', line);
      [path, valueText, timeText] = fields as [string, string, string];
      if (BAD_PATH_CHARACTER.test(path)) return this.refuse('path', line);
    }
    if (path.length === 0) return this.refuse('path', text.slice(start, end));
    const value = readNumber(valueText);
    if (!Number.isFinite(value)) return this.refuse('value', text.slice(start, end));
    const time = readNumber(timeText);
    const timestamp = Number.isNaN(time) ? null : acceptTimestamp(time, this.now());
    if (timestamp === null) return this.refuse('timestamp', text.slice(start, end));
    out.push({ path, value, timestamp });
  }

  private refuse(reason: InvalidReason, line: string): void {
    this.invalid.set(reason, (this.invalid.get(reason) ?? 0) + 1);
    this.onInvalid?.(reason, sampleOf(line));
  }
}

/**
 * A decimal number as Python's float() reads carbon's fields, or NaN. Number() alone would also take `0x1f`,
 * `0b1`, `0o7` and an empty field (as 0), which carbon refuses.
 */
export function readNumber(text: string): number {
  if (text.length === 0) return Number.NaN;
  const value = Number(text);
  if (text.length > 1 && text.charCodeAt(0) === 48) {
    const second = text.charCodeAt(1) | 0x20;
    if (second === 0x78 || second === 0x62 || second === 0x6f) return Number.NaN;
  }
  return value;
}
