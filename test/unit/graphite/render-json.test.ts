import { describe, expect, it } from 'vitest';
import { PackedSeries, parseRenderJson } from '../../../src/graphite/render-json.js';
import type { RenderSeries } from '../../../src/graphite/types.js';

/** What JSON.parse makes of an answer, as the client returned it before the packed reader. */
const parsedByJson = (text: string) => JSON.parse(text) as RenderSeries[];

/** True when both lists hold the same targets and the same points, value for value (Object.is: -0 is not 0). */
function samePoints(ours: readonly RenderSeries[], theirs: readonly RenderSeries[]): boolean {
  if (ours.length !== theirs.length) return false;
  return ours.every((one, i) => {
    const other = theirs[i]!;
    if (one.target !== other.target || one.datapoints.length !== other.datapoints.length) return false;
    return one.datapoints.every((point, k) => point.length === 2 && Object.is(point[0], other.datapoints[k]![0]) && Object.is(point[1], other.datapoints[k]![1]));
  });
}

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('the render answer reader', () => {
  it('reads graphite-web 1.1 answers (with tags) into packed series with the same points as JSON.parse', () => {
    const text =
      '[{"target": "x.a.cpu", "tags": {"name": "x.a.cpu"}, "datapoints": [[null, 1795552940], [1.5, 1795552970], [null, 1795552990]]}, ' +
      '{"target": "sumSeries(x.*.cpu)", "tags": {"name": "sumSeries(x.*.cpu)", "aggregatedBy": "sum"}, "datapoints": [[123456789.123, 1795552960], [1e-07, 1795552980]]}, ' +
      '{"target": "empty", "datapoints": []}]';
    const series = parseRenderJson(text);
    expect(series.every((one) => one instanceof PackedSeries)).toBe(true);
    expect(samePoints(series, parsedByJson(text))).toBe(true);
    expect(Array.from(series[0]!.packed!)).toEqual([NaN, 1795552940, 1.5, 1795552970, NaN, 1795552990]);
    // What the fake render server and the graph endpoint serialize is what the answer said, less the tags.
    expect(JSON.parse(JSON.stringify(series))).toEqual([
      { target: 'x.a.cpu', datapoints: [[null, 1795552940], [1.5, 1795552970], [null, 1795552990]] },
      { target: 'sumSeries(x.*.cpu)', datapoints: [[123456789.123, 1795552960], [1e-7, 1795552980]] },
      { target: 'empty', datapoints: [] },
    ]);
  });

  it('reads every number exactly as JSON.parse does, shortest forms and long or odd decimal texts alike', () => {
    const next = random(21);
    const texts: string[] = ['0', '-0', '0.0', '-0.0', '1e22', '1e23', '9007199254740993', '0.1', '1E+2', '2.5e-3', '1e400', '-1e400', '4.9e-324', '1.7976931348623157e308'];
    for (let i = 0; i < 20_000; i += 1) {
      const kind = i % 4;
      if (kind === 0) texts.push(JSON.stringify((next() - 0.5) * 10 ** Math.floor(next() * 40 - 20)));
      else if (kind === 1) texts.push(JSON.stringify(Math.floor(next() * 2 ** 53) * (next() < 0.5 ? -1 : 1)));
      else {
        // Decimal texts with up to 25 digits and an exponent: some within the exact path, some beyond it.
        const digits = Array.from({ length: 1 + Math.floor(next() * 25) }, () => Math.floor(next() * 10)).join('');
        const point = Math.floor(next() * digits.length);
        const body = `${digits.slice(0, point) || '0'}.${digits.slice(point) || '0'}`.replace(/^0+(?=\d)/, '');
        texts.push(kind === 2 ? body : `${body}e${Math.floor(next() * 60 - 30)}`);
      }
    }
    const text = `[{"target": "n", "datapoints": [${texts.map((value, k) => `[${value}, ${k}]`).join(', ')}]}]`;
    const series = parseRenderJson(text);
    expect(series[0]).toBeInstanceOf(PackedSeries);
    const mismatches = series[0]!.datapoints.filter(([value], k) => !Object.is(value, JSON.parse(texts[k]!))).map((_, k) => texts[k]);
    expect(mismatches).toEqual([]);
  });

  it('decodes escaped and non-ASCII series names as JSON.parse does', () => {
    const text = '[{"target": "caf\\u00e9.\\"q\\".\\\\", "datapoints": [[1, 2]]}, {"target": "données.ñ", "datapoints": [[1, 2]]}]';
    const series = parseRenderJson(text);
    expect(series.map((one) => one.target)).toEqual(['café."q".\\', 'données.ñ']);
    expect(series.every((one) => one instanceof PackedSeries)).toBe(true);
  });

  it('leaves answers of another shape to JSON.parse and returns what it returns', () => {
    const texts = [
      // A value that is not a number: kept as the backend sent it (readers treat it as null).
      '[{"target": "a", "datapoints": [["1", 2], [true, 3]]}]',
      // Pairs that are not pairs, a null time.
      '[{"target": "a", "datapoints": [[1, 2, 3], [4], []]}]',
      '[{"target": "a", "datapoints": [[1, null]]}]',
      // An escaped key, a repeated key (the last one wins), the fields in another order.
      '[{"t\\u0061rget": "a", "datapoints": [[1, 2]]}]',
      '[{"target": "a", "target": "b", "datapoints": [[1, 2]]}]',
    ];
    for (const text of texts) expect(parseRenderJson(text), text).toStrictEqual(parsedByJson(text));
    expect(parseRenderJson(texts[0]!)[0]!.datapoints).toEqual([['1', 2], [true, 3]]);
    expect(parseRenderJson(texts[4]!)[0]!.target).toBe('b');
    // Other fields anywhere, of any kind, are checked and passed over.
    const extra = '[{"datapoints": [[1, 2]], "meta": [1, {"x": null, "y": [[]]}, "s\\n", -2.5e3, false, true], "target": "a"}]';
    expect(parseRenderJson(extra)[0]).toBeInstanceOf(PackedSeries);
    expect(samePoints(parseRenderJson(extra), parsedByJson(extra))).toBe(true);
  });

  it('fails on what JSON.parse fails on, or on JSON that is not a list of series, with the same messages', () => {
    for (const text of ['', '[', '[{"target": "a", "datapoints": [[01, 2]]}]', '\ufeff[]', '[] x', '[{"target": "a\u0001", "datapoints": []}]', '[{"target": "a", "datapoints": [[NaN, 2]]}]']) {
      expect(() => parseRenderJson(text), JSON.stringify(text)).toThrow('render answered something that is not JSON');
    }
    expect(() => parseRenderJson('{"target": "a"}')).toThrow('render answer is not a list of series');
    expect(() => parseRenderJson('[{"datapoints": []}]')).toThrow('render answer has a series without target or datapoints');
    expect(() => parseRenderJson('[{"target": "a", "datapoints": null}]')).toThrow('render answer has a series without target or datapoints');
    expect(parseRenderJson(' [ ] ')).toEqual([]);
  });
});
