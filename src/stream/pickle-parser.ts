import { acceptTimestamp, sampleOf, BAD_PATH_CHARACTER, type CarbonPoint, type InvalidListener, type InvalidReason } from './carbon-point.js';

/**
 * Carbon's pickle protocol as carbon-relay sends it to its destinations: frames of a 4-byte big-endian length and
 * `pickle.dumps(datapoints, protocol=2)` of a list of `(path, (timestamp, value))`.
 *
 * Unpickling runs a program, and a pickle from the wire may name any class to build. This is not an unpickler: it
 * is a small interpreter of the opcodes that list needs (protocol 2 as carbon-relay writes it under Python 3 or 2,
 * and protocol 4's framing and memo forms), whose only values are strings, numbers, tuples and lists. Any other
 * opcode refuses the frame; it never builds an object, imports, or calls anything. Work and memory are linear in
 * the frame, which is at most `maxFrameBytes` (carbon's own receiver takes at most 1 MiB).
 */
export interface PickleReaderOptions {
  /** Largest frame taken; a larger length prefix means the stream cannot be trusted: `broken` is set. */
  maxFrameBytes: number;
  /** Unix seconds, for carbon's `-1` timestamp (now). Default the system clock. */
  now?: () => number;
  /** Told about each refused frame or item (for a rate-limited log). */
  onInvalid?: InvalidListener;
}

/** Carbon's receiver refuses frames over 1 MiB (Twisted's Int32StringReceiver.MAX_LENGTH). */
export const DEFAULT_MAX_FRAME_BYTES = 1 << 20;

export class PickleFrameReader {
  /** Frames and items refused, by reason. */
  readonly invalid = new Map<InvalidReason, number>();
  /** Frames ended (read or refused): a connection that moves this on is not stalling. */
  frames = 0;
  /** A frame's length was out of bounds: the byte stream has lost its framing and the connection should end. */
  broken = false;
  private readonly options: PickleReaderOptions;
  private header = Buffer.alloc(4);
  private headerFill = 0;
  /** The unfinished frame: its length and the parts received (memory follows the bytes received, not the claim). */
  private frameLength = 0;
  private parts: Buffer[] = [];
  private frameFill = 0;

  constructor(options: PickleReaderOptions) {
    this.options = options;
  }

  /** Reads a chunk; the points of each complete frame are appended to `out`. */
  push(chunk: Buffer, out: CarbonPoint[]): void {
    let at = 0;
    while (at < chunk.length && !this.broken) {
      if (this.frameLength === 0) {
        const take = Math.min(4 - this.headerFill, chunk.length - at);
        chunk.copy(this.header, this.headerFill, at, at + take);
        this.headerFill += take;
        at += take;
        if (this.headerFill < 4) return;
        this.headerFill = 0;
        const length = this.header.readUInt32BE(0);
        if (length === 0 || length > this.options.maxFrameBytes) {
          this.broken = true;
          this.refuse('pickle_frame', `a frame of ${length} bytes (at most ${this.options.maxFrameBytes})`);
          return;
        }
        // A whole frame inside the chunk is read in place; only a frame split across chunks is copied.
        if (chunk.length - at >= length) {
          this.decode(chunk.subarray(at, at + length), out);
          at += length;
          continue;
        }
        this.frameLength = length;
        this.frameFill = 0;
      }
      const take = Math.min(this.frameLength - this.frameFill, chunk.length - at);
      // A copy: a slice would pin the whole socket chunk it came from.
      this.parts.push(Buffer.from(chunk.subarray(at, at + take)));
      this.frameFill += take;
      at += take;
      if (this.frameFill === this.frameLength) {
        const frame = Buffer.concat(this.parts, this.frameLength);
        this.parts = [];
        this.frameLength = 0;
        this.decode(frame, out);
      }
    }
  }

  /** Bytes held for an unfinished frame. */
  get bufferedBytes(): number {
    return this.frameLength === 0 ? this.headerFill : this.frameFill;
  }

  private decode(payload: Buffer, out: CarbonPoint[]): void {
    this.frames += 1;
    let value: Value;
    try {
      value = interpret(payload);
    } catch (error) {
      if (!(error instanceof PickleRefusal)) throw error;
      this.refuse(error.reason, error.message);
      return;
    }
    if (!(value instanceof PickleList)) {
      this.refuse('pickle_shape', 'the frame is not a list');
      return;
    }
    const now = this.options.now?.() ?? Date.now() / 1000;
    for (const item of value.items) {
      const point = toPoint(item, now);
      if (typeof point === 'string') this.refuse(point === 'shape' ? 'pickle_shape' : point, describe(item));
      else out.push(point);
    }
  }

  private refuse(reason: InvalidReason, sample: string): void {
    this.invalid.set(reason, (this.invalid.get(reason) ?? 0) + 1);
    this.options.onInvalid?.(reason, sampleOf(sample));
  }
}

// ---- the interpreter ----

class PickleTuple {
  constructor(readonly items: Value[]) {}
}
class PickleList {
  readonly items: Value[] = [];
}
const MARK = Symbol('mark');
type Value = string | number | PickleTuple | PickleList;

class PickleRefusal extends Error {
  constructor(
    readonly reason: InvalidReason,
    message: string,
  ) {
    super(message);
  }
}

/** The value a pickle leaves on its stack at STOP; throws PickleRefusal for anything outside the opcodes below. */
function interpret(data: Buffer): Value {
  const stack: (Value | typeof MARK)[] = [];
  const memo = new Map<number, Value>();
  let at = 0;
  const need = (bytes: number) => {
    if (at + bytes > data.length) throw new PickleRefusal('pickle_frame', 'the pickle ends early');
  };
  const pop = (): Value => {
    const top = stack.pop();
    if (top === undefined || top === MARK) throw new PickleRefusal('pickle_shape', 'an opcode found no value on the stack');
    return top;
  };
  const popToMark = (): Value[] => {
    const mark = stack.lastIndexOf(MARK);
    if (mark === -1) throw new PickleRefusal('pickle_shape', 'no MARK before APPENDS or TUPLE');
    const items = stack.splice(mark) as Value[];
    items.shift();
    return items;
  };
  const top = (): Value => {
    const value = stack.at(-1);
    if (value === undefined || value === MARK) throw new PickleRefusal('pickle_shape', 'an opcode found no value on the stack');
    return value;
  };
  const listBelow = (): PickleList => {
    const list = stack.at(-1);
    if (!(list instanceof PickleList)) throw new PickleRefusal('pickle_shape', 'APPEND to something other than a list');
    return list;
  };
  const text = (length: number) => {
    need(length);
    const value = data.toString('utf8', at, at + length);
    at += length;
    return value;
  };
  while (at < data.length) {
    const op = data[at++]!;
    switch (op) {
      case 0x80: // PROTO
        need(1);
        if (data[at]! < 2 || data[at]! > 5) throw new PickleRefusal('pickle_opcode', `pickle protocol ${data[at]}`);
        at += 1;
        break;
      case 0x95: // FRAME (protocol 4): a length hint, nothing to build
        need(8);
        at += 8;
        break;
      case 0x5d: // EMPTY_LIST
        stack.push(new PickleList());
        break;
      case 0x28: // MARK
        stack.push(MARK);
        break;
      case 0x61: {
        // APPEND
        const value = pop();
        listBelow().items.push(value);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popToMark();
        const list = listBelow();
        for (const item of items) list.items.push(item);
        break;
      }
      case 0x29: // EMPTY_TUPLE
        stack.push(new PickleTuple([]));
        break;
      case 0x74: // TUPLE
        stack.push(new PickleTuple(popToMark()));
        break;
      case 0x85: // TUPLE1
        stack.push(new PickleTuple([pop()]));
        break;
      case 0x86: {
        // TUPLE2
        const second = pop();
        stack.push(new PickleTuple([pop(), second]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const third = pop();
        const second = pop();
        stack.push(new PickleTuple([pop(), second, third]));
        break;
      }
      case 0x58: // BINUNICODE
        need(4);
        at += 4;
        stack.push(text(data.readUInt32LE(at - 4)));
        break;
      case 0x8c: // SHORT_BINUNICODE (protocol 4)
      case 0x55: // SHORT_BINSTRING (Python 2's str)
        need(1);
        at += 1;
        stack.push(text(data[at - 1]!));
        break;
      case 0x54: // BINSTRING (Python 2's str)
        need(4);
        at += 4;
        stack.push(text(data.readUInt32LE(at - 4)));
        break;
      case 0x47: // BINFLOAT
        need(8);
        stack.push(data.readDoubleBE(at));
        at += 8;
        break;
      case 0x4a: // BININT
        need(4);
        stack.push(data.readInt32LE(at));
        at += 4;
        break;
      case 0x4b: // BININT1
        need(1);
        stack.push(data[at]!);
        at += 1;
        break;
      case 0x4d: // BININT2
        need(2);
        stack.push(data.readUInt16LE(at));
        at += 2;
        break;
      case 0x8a: {
        // LONG1: a little-endian two's complement integer of n bytes; timestamps and values need at most 8
        need(1);
        const length = data[at]!;
        at += 1;
        if (length > 8) throw new PickleRefusal('pickle_shape', `an integer of ${length} bytes`);
        need(length);
        stack.push(length === 0 ? 0 : Number(readSigned(data, at, length)));
        at += length;
        break;
      }
      case 0x71: // BINPUT
        need(1);
        memo.set(data[at]!, top());
        at += 1;
        break;
      case 0x72: // LONG_BINPUT
        need(4);
        memo.set(data.readUInt32LE(at), top());
        at += 4;
        break;
      case 0x94: // MEMOIZE (protocol 4)
        memo.set(memo.size, top());
        break;
      case 0x68: // BINGET
      case 0x6a: {
        // LONG_BINGET
        const size = op === 0x68 ? 1 : 4;
        need(size);
        const key = size === 1 ? data[at]! : data.readUInt32LE(at);
        at += size;
        const value = memo.get(key);
        if (value === undefined) throw new PickleRefusal('pickle_shape', `memo ${key} was never stored`);
        stack.push(value);
        break;
      }
      case 0x2e: // STOP
        if (at !== data.length) throw new PickleRefusal('pickle_frame', 'bytes after STOP');
        if (stack.length !== 1) throw new PickleRefusal('pickle_shape', 'more than one value at STOP');
        return pop();
      default:
        throw new PickleRefusal('pickle_opcode', `opcode 0x${op.toString(16).padStart(2, '0')} (${JSON.stringify(String.fromCharCode(op))}) at byte ${at - 1}`);
    }
  }
  throw new PickleRefusal('pickle_frame', 'the pickle has no STOP');
}

function readSigned(data: Buffer, at: number, length: number): bigint {
  let value = 0n;
  for (let k = length - 1; k >= 0; k -= 1) value = (value << 8n) | BigInt(data[at + k]!);
  return data[at + length - 1]! & 0x80 ? value - (1n << BigInt(length * 8)) : value;
}

/** A list item as a point, or why it is refused. */
function toPoint(item: Value, now: number): CarbonPoint | 'shape' | 'path' | 'value' | 'timestamp' {
  if (!(item instanceof PickleTuple) || item.items.length !== 2) return 'shape';
  const [path, datapoint] = item.items;
  if (typeof path !== 'string' || !(datapoint instanceof PickleTuple) || datapoint.items.length !== 2) return 'shape';
  const [time, value] = datapoint.items;
  if (typeof time !== 'number' || typeof value !== 'number') return 'shape';
  if (path.length === 0 || BAD_PATH_CHARACTER.test(path)) return 'path';
  if (!Number.isFinite(value)) return 'value';
  const timestamp = acceptTimestamp(time, now);
  if (timestamp === null) return 'timestamp';
  return { path, value, timestamp };
}

/** A refused item, briefly, for the log. */
function describe(item: Value): string {
  if (typeof item === 'string') return JSON.stringify(item);
  if (typeof item === 'number') return String(item);
  if (item instanceof PickleList) return `a list of ${item.items.length}`;
  return `(${item.items.map((inner) => (inner instanceof PickleTuple || inner instanceof PickleList ? '…' : describe(inner))).join(', ')})`;
}
