import { acceptTimestamp, sampleOf, BAD_PATH_CHARACTER, MAX_TIMESTAMP, type CarbonPoint, type InvalidListener, type InvalidReason } from './carbon-point.js';
import { HASH_MASK, hashByte, hashWord, PathTable } from './path-table.js';
import { PointBatch } from './point-batch.js';

/**
 * Graphite's plaintext protocol, `path value timestamp\n`, read incrementally over the chunks of one connection.
 *
 * Every byte is untrusted: a line longer than `maxLineBytes` is refused and skipped up to its newline (never
 * buffered past the bound), a malformed line is counted by reason and the parser goes on with the next one. The
 * work is linear in the input: each line is read from the chunk's bytes once, up to its own newline (a chunk of many
 * short lines without spaces never makes a line scan past its end).
 */
export interface PlaintextParserOptions {
  /** Longest line taken, in bytes, without its newline. */
  maxLineBytes: number;
  /** Unix seconds, for carbon's `-1` timestamp (now). Default the system clock. */
  now?: () => number;
  /** Told about each refused line (for a rate-limited log). */
  onInvalid?: InvalidListener;
}

const WHITESPACE = /\s+/;
/** Paths a parser used without a shared table (push with CarbonPoint objects) keeps ids for. */
const OWN_TABLE_PATHS = 10_000;

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
  /** This connection's last path id (of table epoch previousEpoch): the next path is expected to follow it. */
  private previous = -1;
  private previousTable: PathTable | null = null;
  private previousEpoch = -1;
  /** For push(): points parsed into columns first, then made objects. */
  private own: PointBatch | null = null;

  constructor(options: PlaintextParserOptions) {
    this.maxLineBytes = options.maxLineBytes;
    this.now = options.now ?? (() => Date.now() / 1000);
    this.onInvalid = options.onInvalid;
  }

  /** Reads a chunk; the points of its complete lines are appended to `out`. */
  push(chunk: Buffer, out: CarbonPoint[]): void {
    const batch = this.ownBatch();
    this.pushBatch(chunk, batch);
    pointsOf(batch, out);
  }

  /**
   * Reads a chunk; the points of its complete lines are appended to `batch` (columns, paths as ids of its table,
   * which may be shared with other parsers). The table is emptied first if it is full.
   */
  pushBatch(chunk: Buffer, batch: PointBatch): void {
    batch.table.reserve();
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
      // Only the line the last chunk began is joined (a copy of one line, not of the chunk); the rest is read in place.
      const newline = body.indexOf(10);
      this.readLines(Buffer.concat([this.pending, body.subarray(0, newline + 1)]), batch);
      this.pending = null;
      complete = body.subarray(newline + 1, last + 1);
    }
    if (complete.length > 0) this.readLines(complete, batch);
    this.keep(body.subarray(last + 1));
  }

  /** The connection ended: a last line without a newline is read too. */
  end(out: CarbonPoint[]): void {
    const batch = this.ownBatch();
    this.endBatch(batch);
    pointsOf(batch, out);
  }

  /**
   * end(), into columns. The table is not emptied here (the batch may hold ids of a push just before): it may run
   * past its bound by this one line.
   */
  endBatch(batch: PointBatch): void {
    if (this.pending !== null && !this.skipping) {
      const rest = this.pending;
      this.pending = null;
      this.readLines(Buffer.concat([rest, Buffer.from('\n')]), batch);
    }
    this.pending = null;
    this.skipping = false;
  }

  /** Bytes buffered for an unfinished line (at most maxLineBytes). */
  get bufferedBytes(): number {
    return this.pending?.length ?? 0;
  }

  private ownBatch(): PointBatch {
    this.own ??= new PointBatch(new PathTable({ maxPaths: OWN_TABLE_PATHS }), 256);
    this.own.clear();
    return this.own;
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

  /**
   * Reads the lines of `bytes` (which ends with a newline) straight from the bytes: the common line (a printable
   * ASCII path, one space, a plain decimal, one space, a plain decimal, LF or CRLF) is read in one pass that
   * compares the path with the one expected next (or hashes it), finds the spaces, reads both numbers and finds the
   * newline, with no string made unless the path is new. Anything else (tabs, repeated spaces, exponents, non-ASCII,
   * control characters, a line past the bound) is read by readOddLine as carbon reads it. Every loop stops at the
   * final newline, and each byte of a line is read a bounded number of times (the expected path's compare, the
   * scan, the index's compare, readOddLine's split): linear in the bytes.
   */
  private readLines(bytes: Buffer, batch: PointBatch): void {
    // One function on purpose: numbers passed to functions that are not inlined are boxed (a timestamp is past
    // the small-integer range), and an allocation per line costs more than the parse.
    const table = batch.table;
    const seed = table.seed;
    const max = this.maxLineBytes;
    const length = bytes.length;
    const view = new DataView(bytes.buffer, bytes.byteOffset, length);
    // The id of this connection's last path read the fast way (of the table's current epoch).
    let previous = this.previousTable === table && this.previousEpoch === table.epoch ? this.previous : -1;
    let start = 0;
    /** Lines ended here (this.lines, written once at the end rather than per line). */
    let lines = 0;
    // The last ten-digit timestamp read (its bytes as three words, and its number).
    let timeKnown = false;
    let knownTime = 0;
    let timeHead = 0;
    let timeMiddle = 0;
    let timeTail = 0;
    while (start < length) {
      // The path. First the one that came after the previous path last time (a sender repeats its order): when the
      // line begins with its bytes and a space, that is the path, read in one pass with no hash. Otherwise printable
      // ASCII up to the first space, hashed on the way, four bytes at a time while no byte of the four is a space, a
      // control character or non-ASCII (tested on the word at once), then byte by byte.
      let hash = 0;
      let at = start;
      let code = 0;
      let id = previous >= 0 ? table.nextOf(previous) : -1;
      if (id >= 0) {
        const end = start + table.lengthOf(id);
        if (end < length && bytes[end] === 32 && table.equals(id, bytes, view, start, end)) {
          at = end;
          code = 32;
        } else {
          id = -1;
        }
      }
      if (id < 0) {
        hash = seed;
        while (at + 4 <= length) {
          const word = view.getInt32(at, true);
          if ((((word - 0x21212121) & ~word) | (word + 0x01010101) | word) & 0x80808080) break;
          hash = hashWord(hash, word);
          at += 4;
        }
        code = bytes[at]!;
        while (code > 32 && code < 127) {
          hash = hashByte(hash, code);
          at += 1;
          code = bytes[at]!;
        }
        hash &= HASH_MASK;
      }
      const first = at;
      if (code === 32 && first > start) {
        // A new order: the index's slot read early (see prefetch), its path compared once the numbers are read.
        if (id < 0) table.prefetch(hash);
        // Two fields, `[-]digits[.digits]` each, the first ended by one space, the second by LF or CRLF. With at
        // most 15 digits the digits are an exact integer and the power of ten exact, so one division is correctly
        // rounded: the same double Number() gives. Anything else (exponents, `inf`, more digits) is readOddLine's.
        let value = 0;
        let time = 0;
        let ok = true;
        for (let field = 0; field < 2 && ok; field += 1) {
          at += 1;
          // A timestamp of the same ten digits as the line before's (a collector's batch shares one): taken as is.
          if (field === 1 && timeKnown && at + 11 <= length && view.getInt32(at, true) === timeHead && view.getInt32(at + 4, true) === timeMiddle && view.getUint16(at + 8, true) === timeTail && bytes[at + 10] === 10) {
            time = knownTime;
            at += 10;
            code = 10;
            break;
          }
          const fieldStart = at;
          const negative = bytes[at] === 45;
          if (negative) at += 1;
          let digits = 0;
          let mantissa = 0;
          let decimals = -1;
          // The digits before the point, then (after a point) those after it: four at once while the next four
          // bytes are all digits (a timestamp is ten), then one by one; a run of digits is never tried in fours
          // again once it is down to single bytes.
          for (;;) {
            while (at + 4 <= length) {
              const word = view.getInt32(at, true);
              if (((((word - 0x30303030) & ~word) | (word + 0x46464646) | word) & 0x80808080) !== 0) break;
              let four = word - 0x30303030;
              four = (Math.imul(four, 10) + (four >>> 8)) & 0x00ff00ff;
              four = (Math.imul(four, 100) + (four >>> 16)) & 0xffff;
              mantissa = mantissa * 10_000 + four;
              digits += 4;
              if (decimals >= 0) decimals += 4;
              at += 4;
            }
            code = bytes[at]!;
            while (code >= 48 && code <= 57) {
              mantissa = mantissa * 10 + (code - 48);
              digits += 1;
              if (decimals >= 0) decimals += 1;
              at += 1;
              code = bytes[at]!;
            }
            if (code !== 46 || decimals >= 0) break;
            decimals = 0;
            at += 1;
          }
          ok = digits > 0 && digits <= 15 && (field === 0 ? code === 32 : code === 10 || (code === 13 && bytes[at + 1] === 10));
          // A leading zero followed by a digit reads as decimal in Python ("007" is 7.0), as here.
          const number = decimals > 0 ? mantissa / EXACT_POWERS[decimals]! : mantissa;
          if (field === 0) {
            value = negative ? -number : number;
          } else {
            time = negative ? -number : number;
            if (digits === 10 && decimals < 0 && !negative && code === 10 && at - fieldStart === 10) {
              timeKnown = true;
              knownTime = time;
              timeHead = view.getInt32(fieldStart, true);
              timeMiddle = view.getInt32(fieldStart + 4, true);
              timeTail = view.getUint16(fieldStart + 8, true);
            }
          }
        }
        const end = at;
        if (ok && end - start <= max) {
          // The clock only for carbon's -1 (now): reading it for every line would cost more than the parse.
          if (time === -1) time = Math.floor(this.now());
          else if (time > 0 && time <= MAX_TIMESTAMP) time = Math.floor(time);
          else time = Number.NaN;
          if (time === time) {
            if (id < 0) {
              id = table.idOf(bytes, view, start, first, hash);
              if (previous >= 0) table.follow(previous, id);
            }
            batch.push(id, value, time);
            previous = id;
          }
          else this.refuse('timestamp', bytes.toString('utf8', start, end));
          lines += 1;
          start = code === 13 ? end + 2 : end + 1;
          continue;
        }
      }
      let newline = start;
      while (bytes[newline] !== 10) newline += 1;
      const end = newline > start && bytes[newline - 1] === 13 ? newline - 1 : newline;
      if (end > start) {
        if (end - start > max) this.refuse('too_long', bytes.toString('utf8', start, Math.min(end, start + 80)));
        else this.readOddLine(bytes, start, end, batch);
      }
      lines += 1;
      start = newline + 1;
    }
    this.lines += lines;
    this.previous = previous;
    this.previousTable = table;
    this.previousEpoch = table.epoch;
  }

  /** A line the fast path does not read: split on any run of whitespace, as carbon does. */
  private readOddLine(bytes: Buffer, start: number, end: number, batch: PointBatch): void {
    const line = bytes.toString('utf8', start, end);
    const fields = line.trim().split(WHITESPACE);
    if (fields.length !== 3) return this.refuse('fields', line);
    const [path, valueText, timeText] = fields as [string, string, string];
    if (path.length === 0 || BAD_PATH_CHARACTER.test(path)) return this.refuse('path', line);
    const value = readNumber(valueText);
    if (!Number.isFinite(value)) return this.refuse('value', line);
    const time = readNumber(timeText);
    const timestamp = time === -1 ? Math.floor(this.now()) : acceptTimestamp(time, 0);
    if (timestamp === null) return this.refuse('timestamp', line);
    batch.push(batch.table.idOfString(path), value, timestamp);
  }

  private refuse(reason: InvalidReason, line: string): void {
    this.invalid.set(reason, (this.invalid.get(reason) ?? 0) + 1);
    this.onInvalid?.(reason, () => sampleOf(line));
  }
}

/** The points of a batch as objects, appended to `out`. */
function pointsOf(batch: PointBatch, out: CarbonPoint[]): void {
  for (let k = 0; k < batch.length; k += 1) out.push({ path: batch.table.pathOf(batch.ids[k]!), value: batch.values[k]!, timestamp: batch.timestamps[k]! });
}

/** 10^k for k = 0..22: the powers of ten a double holds exactly. */
const EXACT_POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

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
