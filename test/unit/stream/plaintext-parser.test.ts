import { describe, expect, it } from 'vitest';
import type { CarbonPoint } from '../../../src/stream/carbon-point.js';
import { PlaintextParser, readNumber } from '../../../src/stream/plaintext-parser.js';

const parse = (chunks: (string | Buffer)[], maxLineBytes = 100) => {
  const samples: string[] = [];
  const parser = new PlaintextParser({ maxLineBytes, now: () => 1_700_000_123.7, onInvalid: (reason, sample) => samples.push(`${reason}: ${sample}`) });
  const out: CarbonPoint[] = [];
  for (const chunk of chunks) parser.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, out);
  parser.end(out);
  return { out, invalid: Object.fromEntries(parser.invalid), samples, parser };
};

describe('the plaintext parser', () => {
  it('reads lines split anywhere across chunks, CRLF, tabs and repeated spaces as carbon does', () => {
    const text = 'a.b 1 1700000000\nc.d -2.5e1 1700000010.9\r\ne.f\t3  1700000020\n  g.h 4 1700000030  \n';
    const whole = parse([text]).out;
    expect(whole).toEqual([
      { path: 'a.b', value: 1, timestamp: 1700000000 },
      { path: 'c.d', value: -25, timestamp: 1700000010 },
      { path: 'e.f', value: 3, timestamp: 1700000020 },
      { path: 'g.h', value: 4, timestamp: 1700000030 },
    ]);
    // Every split point gives the same points.
    for (let cut = 1; cut < text.length; cut += 1) expect(parse([text.slice(0, cut), text.slice(cut)]).out).toEqual(whole);
    const bytes = Buffer.from(text);
    expect(parse([...bytes].map((byte) => Buffer.from([byte]))).out).toEqual(whole);
  });

  it('takes -1 as now and reads a last line without a newline at the end', () => {
    expect(parse(['x 1 -1\ny 2 1700000000']).out).toEqual([
      { path: 'x', value: 1, timestamp: 1700000123 },
      { path: 'y', value: 2, timestamp: 1700000000 },
    ]);
  });

  it('counts each malformed line by reason and goes on with the next', () => {
    const { out, invalid, samples } = parse([
      'only.two 1\n',
      'a b c d\n',
      'nan.value NaN 1700000000\n',
      'inf.value inf 1700000000\n',
      'hex.value 0x10 1700000000\n',
      'bad.time 1 yesterday\n',
      'old.time 1 0\n',
      'far.time 1 99999999999\n',
      'ctl\u0001path 1 1700000000\n',
      '\n',
      'good 7 1700000000\n',
    ]);
    expect(out).toEqual([{ path: 'good', value: 7, timestamp: 1700000000 }]);
    expect(invalid).toEqual({ fields: 2, value: 3, timestamp: 3, path: 1 });
    expect(samples).toContain('path: ctl\\x01path 1 1700000000');
  });

  it('refuses a line past the bound without buffering it, however it arrives', () => {
    const long = `${'x'.repeat(500)} 1 1700000000\n`;
    const { out, invalid, parser } = parse([long.slice(0, 90), long.slice(90, 300), long.slice(300), 'ok 1 1700000000\n'], 100);
    expect(out).toEqual([{ path: 'ok', value: 1, timestamp: 1700000000 }]);
    expect(invalid).toEqual({ too_long: 1 });
    expect(parser.bufferedBytes).toBe(0);
    // Inside one chunk too, and measured in bytes (a 4-byte character counts 4).
    expect(parse([`${'\u{1F600}'.repeat(30)} 1 1700000000\nok 1 1700000000\n`], 100).invalid).toEqual({ too_long: 1 });
    expect(parse([`${'\u{1F600}'.repeat(20)} 1 1700000000\n`], 100).out).toHaveLength(1);
  });

  it('refuses broken UTF-8 and binary junk in paths', () => {
    const junk = Buffer.concat([Buffer.from('a.'), Buffer.from([0xff, 0xfe, 0x00]), Buffer.from(' 1 1700000000\nok 1 1700000000\n')]);
    const { out, invalid } = parse([junk]);
    expect(out.map((point) => point.path)).toEqual(['ok']);
    expect(invalid).toEqual({ path: 1 });
  });

  it('reads numbers as Python float does, not as Number()', () => {
    expect(readNumber('')).toBeNaN();
    expect(readNumber('0x1f')).toBeNaN();
    expect(readNumber('0b1')).toBeNaN();
    expect(readNumber('0e5')).toBe(0);
    expect(readNumber('-0.5')).toBe(-0.5);
    expect(readNumber('1e3')).toBe(1000);
  });

  it('reads a chunk of many lines without spaces (each searching the chunk to its end would be 250 billion steps)', () => {
    const chunk = Buffer.from(`${'x\n'.repeat(500_000)}a 1 1700000000\n`);
    const { out, invalid } = parse([chunk]);
    expect(out).toHaveLength(1);
    expect(invalid).toEqual({ fields: 500_000 });
  });
});
