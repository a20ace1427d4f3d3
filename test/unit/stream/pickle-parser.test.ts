import { describe, expect, it } from 'vitest';
import type { CarbonPoint } from '../../../src/stream/carbon-point.js';
import { PickleFrameReader } from '../../../src/stream/pickle-parser.js';

// What Python 3's pickle.dumps(protocol=2) writes for carbon-relay's datapoints (the same path object twice, so the
// second is a memo reference), produced once and kept as hex (the unit project starts no process):
// pickle.dumps([(s, (1700000000.0, 1.5)), (s, (1700000010, 2)), ('x.y', (1700000000, -3.25))], protocol=2), s = 'a.b.c'
const PYTHON_PICKLE = Buffer.from('80025d7100285805000000612e622e6371014741d954fc40000000473ff800000000000086710286710368014a0af153654b028671048671055803000000782e7971064a00f1536547c00a000000000000867107867108652e', 'hex');

const frame = (payload: Buffer) => {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(payload.length);
  return Buffer.concat([header, payload]);
};

const read = (chunks: Buffer[], maxFrameBytes = 1 << 20) => {
  const reader = new PickleFrameReader({ maxFrameBytes, now: () => 1_700_000_500 });
  const out: CarbonPoint[] = [];
  for (const chunk of chunks) reader.push(chunk, out);
  return { out, invalid: Object.fromEntries(reader.invalid), reader };
};

/** A small pickle writer for the tests: the opcodes carbon-relay's pickle.dumps(protocol=2) writes. */
const op = {
  proto: Buffer.from([0x80, 2]),
  list: Buffer.from(']'),
  mark: Buffer.from('('),
  appends: Buffer.from('e'),
  append: Buffer.from('a'),
  tuple2: Buffer.from([0x86]),
  stop: Buffer.from('.'),
  put: (k: number) => Buffer.from([0x71, k]),
  get: (k: number) => Buffer.from([0x68, k]),
  str: (text: string) => {
    const bytes = Buffer.from(text);
    const head = Buffer.alloc(5);
    head[0] = 0x58;
    head.writeUInt32LE(bytes.length, 1);
    return Buffer.concat([head, bytes]);
  },
  float: (value: number) => {
    const bytes = Buffer.alloc(9);
    bytes[0] = 0x47;
    bytes.writeDoubleBE(value, 1);
    return bytes;
  },
  int: (value: number) => {
    const bytes = Buffer.alloc(5);
    bytes[0] = 0x4a;
    bytes.writeInt32LE(value, 1);
    return bytes;
  },
};

const carbonRelayPickle = () =>
  Buffer.concat([
    op.proto, op.list, op.put(0), op.mark,
    op.str('a.b.c'), op.put(1), op.float(1700000000), op.float(1.5), op.tuple2, op.put(2), op.tuple2, op.put(3),
    op.get(1), op.int(1700000010), Buffer.from([0x4b, 2]), op.tuple2, op.put(4), op.tuple2, op.put(5),
    op.str('x.y'), op.put(6), op.int(1700000000), op.float(-3.25), op.tuple2, op.put(7), op.tuple2, op.put(8),
    op.appends, op.stop,
  ]);

describe('the pickle frame reader', () => {
  it("reads carbon-relay's frames, memo references included, split anywhere", () => {
    expect(carbonRelayPickle().equals(PYTHON_PICKLE)).toBe(true);
    const stream = Buffer.concat([frame(carbonRelayPickle()), frame(carbonRelayPickle())]);
    const expected = [
      { path: 'a.b.c', value: 1.5, timestamp: 1700000000 },
      { path: 'a.b.c', value: 2, timestamp: 1700000010 },
      { path: 'x.y', value: -3.25, timestamp: 1700000000 },
    ];
    expect(read([stream]).out).toEqual([...expected, ...expected]);
    for (let cut = 1; cut < stream.length; cut += 7) expect(read([stream.subarray(0, cut), stream.subarray(cut)]).out).toEqual([...expected, ...expected]);
  });

  it('refuses a frame with any other opcode, builds nothing, and reads the next frame', () => {
    // pickle.dumps of os.system('id'): GLOBAL 'posix system', then REDUCE.
    const evil = Buffer.from("cposix\nsystem\np0\n(Vid\np1\ntp2\nRp3\n.", 'latin1');
    const good = Buffer.concat([op.proto, op.list, op.str('ok'), op.int(1700000000), op.int(1), op.tuple2, op.tuple2, op.append, op.stop]);
    const { out, invalid } = read([Buffer.concat([frame(evil), frame(good)])]);
    expect(out).toEqual([{ path: 'ok', value: 1, timestamp: 1700000000 }]);
    expect(invalid).toEqual({ pickle_opcode: 1 });
  });

  it('refuses items of another shape one by one and keeps the rest', () => {
    const payload = Buffer.concat([
      op.proto, op.list, op.mark,
      op.str('three'), op.int(1), op.int(2), Buffer.from([0x87]), // a 3-tuple
      op.str('ok'), op.int(1700000000), op.int(5), op.tuple2, op.tuple2,
      op.int(7), // a bare number
      op.str('nan'), op.int(1700000000), op.float(Number.NaN), op.tuple2, op.tuple2,
      op.str('bad path'), op.int(1700000000), op.int(1), op.tuple2, op.tuple2,
      op.appends, op.stop,
    ]);
    const { out, invalid } = read([frame(payload)]);
    expect(out).toEqual([{ path: 'ok', value: 5, timestamp: 1700000000 }]);
    expect(invalid).toEqual({ pickle_shape: 2, value: 1, path: 1 });
  });

  it('breaks off on a frame length past the bound without buffering it', () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(50_000_000);
    const { out, invalid, reader } = read([header, Buffer.alloc(1000)], 1 << 20);
    expect(out).toEqual([]);
    expect(invalid).toEqual({ pickle_frame: 1 });
    expect(reader.broken).toBe(true);
    expect(reader.bufferedBytes).toBeLessThanOrEqual(4);
  });

  it('refuses truncated pickles, unknown memo keys and a stack without a list', () => {
    const truncated = carbonRelayPickle().subarray(0, 30);
    const unknownMemo = Buffer.concat([op.proto, op.list, op.get(9), op.append, op.stop]);
    const notList = Buffer.concat([op.proto, op.str('x'), op.stop]);
    const { out, invalid } = read([frame(truncated), frame(unknownMemo), frame(notList)]);
    expect(out).toEqual([]);
    expect(invalid).toEqual({ pickle_frame: 1, pickle_shape: 2 });
  });
});
