import type { RenderSeries } from './types.js';

/** Why an answer cannot be read as series: the client turns it into an HTTP-level failure. */
export class RenderAnswerError extends Error {}

/**
 * Reads a render answer (`format=json`, the body's bytes) into series. An answer of the usual shape (a list of
 * objects with a string `target`, `datapoints` of `[number or null, number]` pairs, and any other fields, such as
 * graphite-web 1.1's `tags`) is read straight from the bytes into packed series (PackedSeries: one Float64Array per
 * series instead of an array per point). JSON.parse of a cycle's answers made about 300,000 small arrays per 10,000
 * alerts, and their collection was a quarter of a replica's CPU. Anything else (another shape, a point that is
 * not two numbers, escapes in a key, a BOM, broken JSON) goes through JSON.parse as before, so the results and
 * the errors are exactly those of JSON.parse: the fast reader only accepts text JSON.parse reads the same way.
 */
export function parseRenderAnswer(body: Uint8Array): RenderSeries[] {
  const packed = reader.read(body);
  return packed ?? parseGeneric(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
}

/** The same from text (tests and benchmarks hold answers as text). */
export function parseRenderJson(text: string): RenderSeries[] {
  return parseRenderAnswer(Buffer.from(text, 'utf8'));
}

/**
 * A series whose points are packed as value, time, value, time, ... (NaN for a null value). `datapoints` builds the
 * `[value, time]` pairs on first use, for the readers that want them (graphs, backtests); the evaluator reads
 * `packed`. JSON.stringify gives what the answer said.
 */
export class PackedSeries implements RenderSeries {
  #pairs: [number | null, number][] | undefined;
  constructor(
    readonly target: string,
    readonly packed: Float64Array,
  ) {}

  get datapoints(): [number | null, number][] {
    if (!this.#pairs) {
      const pairs: [number | null, number][] = new Array(this.packed.length / 2);
      for (let i = 0; i < pairs.length; i += 1) {
        const value = this.packed[2 * i]!;
        pairs[i] = [Number.isNaN(value) ? null : value, this.packed[2 * i + 1]!];
      }
      this.#pairs = pairs;
    }
    return this.#pairs;
  }

  toJSON(): { target: string; datapoints: [number | null, number][] } {
    return { target: this.target, datapoints: this.datapoints };
  }
}

/**
 * One series kept for the life of the process. Between two cycles no series is alive, and a full collection then
 * drops PackedSeries' hidden class (V8 holds a class's instance shapes only through its instances); every function
 * optimized for it (the reader, the judging) was then deoptimized once a cycle ("weak objects" in --trace-deopt)
 * and ran unoptimized until it warmed up again. Keeping one instance keeps the shape, and that code, alive.
 */
export const KEPT_FOR_ITS_SHAPE = new PackedSeries('', new Float64Array(0));

function parseGeneric(text: string): RenderSeries[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new RenderAnswerError('render answered something that is not JSON');
  }
  if (!Array.isArray(data)) throw new RenderAnswerError('render answer is not a list of series');
  for (const item of data as unknown[]) {
    const series = item as { target?: unknown; datapoints?: unknown };
    if (typeof series?.target !== 'string' || !Array.isArray(series.datapoints)) {
      throw new RenderAnswerError('render answer has a series without target or datapoints');
    }
  }
  // The datapoints are kept as parsed (no copy: 24 h windows make millions of points); consumers treat any value
  // that is not a finite number as null and skip malformed pairs.
  return data as RenderSeries[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** 10^0 .. 10^22: exact doubles, so `m * 10^e` and `m / 10^e` round once (Clinger's fast path). */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, e) => Number(`1e${e}`));
/** Mantissas up to this are exact doubles. */
const MAX_EXACT = 2 ** 53;

/** Points of the answer being read, before they are copied out at their exact length. Grows as needed. */
let scratch = new Float64Array(16_384);

/**
 * One pass over an answer's bytes. Each method returns the position after what it read, or -1 where the text is
 * not of the shape it reads (the caller then gives the whole answer to JSON.parse).
 */
class PackedReader {
  private bytes: Uint8Array = EMPTY_BYTES;
  /** The same bytes as a Buffer, to decode strings from. */
  private buffer: Buffer = EMPTY_BYTES;
  private length = 0;
  /** The number just read by readNumber (a double: the field's representation never changes). */
  private number = 0.5;
  /** The string just read by readString, when asked to decode it. */
  private string = '';

  /** The series read so far: their names, and where their points start and end in `scratch` (in numbers). */
  private readonly targets: string[] = [];
  private readonly bounds: number[] = [];
  /** Numbers written to `scratch` so far. */
  private filled = 0;

  /** The series of `bytes`, or null when they are not of the usual shape. */
  read(bytes: Uint8Array): RenderSeries[] | null {
    // Views of our own making rather than the caller's object: an HTTP body chunk is a Buffer made in C++, whose
    // hidden class (Uint8Array's, given Buffer's prototype) lives only as long as some such chunk does. Code
    // optimized for it was thrown away at every full collection between two cycles ("weak objects" under
    // --trace-deopt) and compiled again, 10 µs per alert a cycle. These two classes live as long as the process.
    this.bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.length;
    this.targets.length = 0;
    this.bounds.length = 0;
    this.filled = 0;
    try {
      return this.readAll();
    } finally {
      // Not holding on to the last answer.
      this.bytes = EMPTY_BYTES;
      this.buffer = EMPTY_BYTES;
      this.targets.length = 0;
    }
  }

  private readAll(): RenderSeries[] | null {
    let at = this.space(0);
    if (this.bytes[at] !== OPEN_BRACKET) return null;
    at = this.space(at + 1);
    if (this.bytes[at] === CLOSE_BRACKET) return this.space(at + 1) === this.length ? [] : null;
    for (;;) {
      at = this.readSeries(at);
      if (at < 0) return null;
      at = this.space(at);
      const next = this.bytes[at];
      if (next === COMMA) at = this.space(at + 1);
      else if (next === CLOSE_BRACKET) return this.space(at + 1) === this.length ? this.packAll() : null;
      else return null;
    }
  }

  /**
   * The series, their points in one Float64Array for the whole answer (one allocation: a typed array's memory is
   * allocated outside the heap, and one per series cost more than the JSON.parse it replaces) seen through a view
   * each. A series kept alive keeps its answer's points alive, as long as the cycle holds it.
   */
  private packAll(): RenderSeries[] {
    const points = scratch.slice(0, this.filled);
    const out: RenderSeries[] = [];
    for (let i = 0; i < this.targets.length; i += 1) out.push(new PackedSeries(this.targets[i]!, points.subarray(this.bounds[2 * i]!, this.bounds[2 * i + 1]!)));
    this.targets.length = 0;
    return out;
  }

  /** `{"target": "...", "datapoints": [...], any other fields}` */
  private readSeries(start: number): number {
    const bytes = this.bytes;
    if (bytes[start] !== OPEN_BRACE) return -1;
    let target: string | undefined;
    let points: [number, number] | undefined;
    let at = this.space(start + 1);
    if (bytes[at] === CLOSE_BRACE) return -1;
    for (;;) {
      if (bytes[at] !== QUOTE) return -1;
      const keyStart = at + 1;
      at = this.readString(at, false);
      if (at < 0) return -1;
      const key = this.keyOf(keyStart, at - 1);
      at = this.space(at);
      if (bytes[at] !== COLON) return -1;
      at = this.space(at + 1);
      if (key === 'target') {
        // A key given twice takes JSON.parse's rule (the last wins): rare enough to leave to it.
        if (target !== undefined || bytes[at] !== QUOTE) return -1;
        at = this.readString(at, true);
        target = this.string;
      } else if (key === 'datapoints') {
        if (points !== undefined) return -1;
        const first = this.filled;
        at = this.readPoints(at);
        points = [first, this.filled];
      } else if (key === null) {
        return -1;
      } else {
        at = this.skipValue(at, 0);
      }
      if (at < 0) return -1;
      at = this.space(at);
      const next = bytes[at];
      if (next === COMMA) at = this.space(at + 1);
      else if (next === CLOSE_BRACE) break;
      else return -1;
    }
    if (target === undefined || points === undefined) return -1;
    this.targets.push(target);
    this.bounds.push(points[0], points[1]);
    return at + 1;
  }

  /** `[[value or null, time], ...]` appended to `scratch`. */
  private readPoints(start: number): number {
    const bytes = this.bytes;
    if (bytes[start] !== OPEN_BRACKET) return -1;
    let filled = this.filled;
    let at = this.space(start + 1);
    if (bytes[at] === CLOSE_BRACKET) return at + 1;
    for (;;) {
      if (bytes[at] !== OPEN_BRACKET) return -1;
      at = this.space(at + 1);
      let value: number;
      if (bytes[at] === 0x6e) {
        // null
        if (bytes[at + 1] !== 0x75 || bytes[at + 2] !== 0x6c || bytes[at + 3] !== 0x6c) return -1;
        value = NaN;
        at += 4;
      } else {
        at = this.readNumber(at);
        if (at < 0) return -1;
        value = this.number;
      }
      at = this.space(at);
      if (bytes[at] !== COMMA) return -1;
      at = this.readNumber(this.space(at + 1));
      if (at < 0) return -1;
      at = this.space(at);
      if (bytes[at] !== CLOSE_BRACKET) return -1;
      if (filled + 2 > scratch.length) {
        const grown = new Float64Array(scratch.length * 2);
        grown.set(scratch);
        scratch = grown;
      }
      scratch[filled] = value;
      scratch[filled + 1] = this.number;
      filled += 2;
      at = this.space(at + 1);
      const next = bytes[at];
      if (next === COMMA) at = this.space(at + 1);
      else if (next === CLOSE_BRACKET) break;
      else return -1;
    }
    this.filled = filled;
    return at + 1;
  }

  /**
   * A JSON number (RFC 8259 grammar) into `number`. Up to 15-16 significant digits and a decimal exponent within
   * ±22 it is computed exactly as JSON.parse rounds it (one correctly rounded multiplication or division of exact
   * doubles); beyond that, Number() of its text does it.
   */
  private readNumber(start: number): number {
    const bytes = this.bytes;
    let at = start;
    const negative = bytes[at] === MINUS;
    if (negative) at += 1;
    let mantissa = 0;
    let c = bytes[at]!;
    if (c === ZERO) {
      at += 1;
      c = bytes[at]!;
    } else if (c > ZERO && c <= NINE) {
      do {
        mantissa = mantissa * 10 + (c - ZERO);
        at += 1;
        c = bytes[at]!;
      } while (c >= ZERO && c <= NINE);
    } else return -1;
    let exponent = 0;
    if (c === DOT) {
      at += 1;
      c = bytes[at]!;
      if (!(c >= ZERO && c <= NINE)) return -1;
      do {
        mantissa = mantissa * 10 + (c - ZERO);
        exponent -= 1;
        at += 1;
        c = bytes[at]!;
      } while (c >= ZERO && c <= NINE);
    }
    if (c === 0x65 || c === 0x45) {
      at += 1;
      c = bytes[at]!;
      let sign = 1;
      if (c === PLUS || c === MINUS) {
        if (c === MINUS) sign = -1;
        at += 1;
        c = bytes[at]!;
      }
      if (!(c >= ZERO && c <= NINE)) return -1;
      let written = 0;
      do {
        // Past 9 digits the exponent is far outside the fast path anyway; keep it from growing without bound.
        if (written < 1e9) written = written * 10 + (c - ZERO);
        at += 1;
        c = bytes[at]!;
      } while (c >= ZERO && c <= NINE);
      exponent += sign * written;
    }
    // The mantissa accumulated above is exact only while every step stayed below 2^53 (it only grows).
    if (mantissa < MAX_EXACT && exponent >= -22 && exponent <= 22) {
      const magnitude = exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent]! : mantissa / POWERS_OF_TEN[-exponent]!;
      this.number = negative ? -magnitude : magnitude;
    } else {
      this.number = Number(this.buffer.toString('latin1', start, at));
    }
    return at;
  }

  /**
   * A string starting at the quote at `start`; with `decode`, its value into `string` (a copy, not a slice of the
   * answer: a series' name outlives its answer). Escapes are checked, then decoded by JSON.parse; a raw control
   * character is not JSON.
   */
  private readString(start: number, decode: boolean): number {
    const bytes = this.bytes;
    let at = start + 1;
    let escaped = false;
    for (;;) {
      if (at >= this.length) return -1;
      const c = bytes[at]!;
      if (c === QUOTE) break;
      if (c < 0x20) return -1;
      if (c === BACKSLASH) {
        escaped = true;
        const next = bytes[at + 1];
        if (next === 0x75) {
          for (let k = 2; k < 6; k += 1) if (!isHex(bytes[at + k])) return -1;
          at += 6;
        } else if (next === QUOTE || next === BACKSLASH || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e || next === 0x72 || next === 0x74) {
          at += 2;
        } else return -1;
      } else at += 1;
    }
    if (decode) {
      this.string = escaped ? (JSON.parse(this.buffer.toString('utf8', start, at + 1)) as string) : this.buffer.toString('utf8', start + 1, at);
    }
    return at + 1;
  }

  /** A key between `from` and `to` (exclusive) when it is one the reader knows; '' for another; null if escaped. */
  private keyOf(from: number, to: number): string | null {
    const bytes = this.bytes;
    for (let i = from; i < to; i += 1) if (bytes[i] === BACKSLASH) return null;
    const length = to - from;
    if (length === 6 && matches(bytes, from, 'target')) return 'target';
    if (length === 10 && matches(bytes, from, 'datapoints')) return 'datapoints';
    return '';
  }

  /** Any JSON value, checked but not kept (graphite-web's `tags`, other backends' extra fields). */
  private skipValue(start: number, depth: number): number {
    const bytes = this.bytes;
    const c = bytes[start];
    if (depth > 64) return -1;
    if (c === QUOTE) return this.readString(start, false);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      let at = this.space(start + 1);
      if (bytes[at] === close) return at + 1;
      for (;;) {
        if (c === OPEN_BRACE) {
          if (bytes[at] !== QUOTE) return -1;
          at = this.readString(at, false);
          if (at < 0) return -1;
          at = this.space(at);
          if (bytes[at] !== COLON) return -1;
          at = this.space(at + 1);
        }
        at = this.skipValue(at, depth + 1);
        if (at < 0) return -1;
        at = this.space(at);
        if (bytes[at] === COMMA) at = this.space(at + 1);
        else if (bytes[at] === close) return at + 1;
        else return -1;
      }
    }
    if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) return this.readNumber(start);
    for (const literal of ['true', 'false', 'null']) if (matches(bytes, start, literal)) return start + literal.length;
    return -1;
  }

  /** Past JSON whitespace. */
  private space(start: number): number {
    const bytes = this.bytes;
    let at = start;
    for (;;) {
      const c = bytes[at];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at += 1;
      else return at;
    }
  }
}

const EMPTY_BYTES = Buffer.alloc(0);

/**
 * The one reader, reused. A reader made per answer showed up under `--trace-deopt` as "weak objects": its code was
 * deoptimized after every full GC and optimized again. (The PackedSeries a cycle drops still do that to the code that
 * reads them, once per cycle; plain object literals do not, but a literal with a lazy `datapoints` getter cost
 * 1.7 µs per series to make. See docs/evaluator.md.)
 */
const reader = new PackedReader();

function matches(bytes: Uint8Array, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k += 1) if (bytes[at + k] !== word.charCodeAt(k)) return false;
  return true;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}
