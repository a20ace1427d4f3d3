import { describe, expect, it } from 'vitest';
import { evaluateTarget, isLocallyEvaluable, LOCAL_FUNCTION_NAMES, seriesPathsOf, whyNotLocal, windowSeries } from '../../../src/graphite-functions/index.js';
import { pyFloatText, pyFormatG, pyRound } from '../../../src/graphite-functions/python-numbers.js';

describe('the function engine', () => {
  it('takes only targets whose every function and argument it evaluates as graphite-web does', () => {
    expect(isLocallyEvaluable('sumSeries(a.*.b)')).toBe(true);
    expect(isLocallyEvaluable('a.b.c')).toBe(true);
    expect(isLocallyEvaluable("a.* | scale(2) | alias('x')")).toBe(true);
    expect(whyNotLocal('holtWintersForecast(a.b)')).toBe('holtWintersForecast() is not evaluated locally');
    expect(whyNotLocal('sumSeries(holtWintersForecast(a.b))')).toBe('holtWintersForecast() is not evaluated locally');
    expect(whyNotLocal('scale(a.b, "2")')).toMatch(/factor must be a number/);
    expect(whyNotLocal("aliasByNode(a.b, 'dc')")).toMatch(/tags are not evaluated locally/);
    expect(whyNotLocal('seriesByTag("name=a")')).toMatch(/not evaluated locally/);
    expect(whyNotLocal('a.b;dc=eu')).toMatch(/tagged/);
    expect(whyNotLocal('sumSeries(a.*')).toMatch(/does not parse/);
    expect(whyNotLocal("summarize(a.b, 'soon')")).toMatch(/time string/);
    expect(whyNotLocal('scale(a.b)')).toMatch(/lacks factor/);
    expect(whyNotLocal('scale(a.b, 2, 3)')).toMatch(/too many arguments/);
    expect(LOCAL_FUNCTION_NAMES).toEqual(expect.arrayContaining(['sumSeries', 'sum', 'avg', 'asPercent', 'movingAverage', 'summarize']));
    expect(() => evaluateTarget('holtWintersForecast(a.b)', () => [], { from: 0, until: 60 })).toThrow(/not evaluated locally/);
  });

  it('lists the paths graphite-web fetches: not those only in keyword arguments', () => {
    expect(seriesPathsOf('divideSeries(sumSeries(a.{x,y}.err), a.*.total)')).toEqual(['a.{x,y}.err', 'a.*.total']);
    expect(seriesPathsOf('transformNull(a.b, referenceSeries=c.d)')).toEqual(['a.b']);
    expect(seriesPathsOf('a.b | asPercent(c.d)')).toEqual(['a.b', 'c.d']);
  });

  it('cuts fetched series to the range as whisper does: step slots after from, up to until, last point wins', () => {
    const cut = windowSeries({ target: 'x', datapoints: [[1, 995], [2, 1003], [3, 1007], [4, 1010], [5, 1030]] }, 'x', { from: 1000, until: 1025 });
    // step 3 read from the points (the smallest gap); but a series with a step says so.
    expect(cut.step).toBe(3);
    const stepped = windowSeries({ target: 'x', step: 10, datapoints: [[1, 995], [2, 1003], [3, 1007], [4, 1010], [5, 1030]] }, 'x', { from: 1000, until: 1025 });
    expect([stepped.start, stepped.end, stepped.values]).toEqual([1010, 1030, [4, null]]);
    const early = windowSeries({ target: 'x', step: 10, datapoints: [[2, 1003], [3, 1007]] }, 'x', { from: 990, until: 1000 });
    expect([early.start, early.values]).toEqual([1000, [3]]);
  });

  it('formats and rounds numbers as Python 3 does', () => {
    expect([pyFloatText(1500), pyFloatText(1e16), pyFloatText(0.0001), pyFloatText(0.00001), pyFloatText(-2.5)]).toEqual(['1500.0', '1e+16', '0.0001', '1e-05', '-2.5']);
    expect([pyFormatG(0.5), pyFormatG(1e6), pyFormatG(123456), pyFormatG(1234565), pyFormatG(0.0001), pyFormatG(-0.00001234)]).toEqual(['0.5', '1e+06', '123456', '1.23456e+06', '0.0001', '-1.234e-05']);
    expect([pyRound(0.0078125, 6), pyRound(2.5e-7, 6), pyRound(1 / 3, 6), pyRound(-0.0078125, 6)]).toEqual([0.007812, 0, 0.333333, -0.007812]);
  });
});

describe('the list of functions evaluated locally', () => {
  it('is the one docs/evaluator.md and `alertform test --help` give', async () => {
    const { readFileSync } = await import('node:fs');
    const docs = readFileSync(new URL('../../../docs/evaluator.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Functions evaluated locally'), docs.indexOf('## What alertform considers true'));
    const help = readFileSync(new URL('../../../src/cli/commands/test.ts', import.meta.url), 'utf8');
    for (const name of LOCAL_FUNCTION_NAMES) {
      expect(section).toMatch(new RegExp(`\`${name}\``));
      expect(help).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });
});

describe('a compiled target', () => {
  it('answers as evaluateTarget, from one parse', async () => {
    const { compileTarget } = await import('../../../src/graphite-functions/index.js');
    const compiled = compileTarget("movingAverage(sumSeries(a.*), '1min')");
    const all = [{ target: 'a.x', step: 10, datapoints: Array.from({ length: 20 }, (_, i) => [i, 1000 + i * 10] as [number, number]) }];
    const fetch = (path: string) => (path === 'a.*' ? all : []);
    expect(compiled.paths).toEqual(['a.*']);
    expect(compiled.lookbackSeconds(10)).toBe(60);
    expect(compiled.evaluate(fetch, { from: 1060, until: 1190 })).toEqual(evaluateTarget("movingAverage(sumSeries(a.*), '1min')", fetch, { from: 1060, until: 1190 }));
    expect(compiled.evaluate(fetch, { from: 1060, until: 1190 })[0]!.datapoints[0]).toEqual([3.5, 1070]);
    expect(() => compileTarget('exclude(a.*, "x")')).toThrow(/exclude\(\) is not evaluated locally/);
  });
});

describe("Python's round(x, 6)", () => {
  it('gives the exact path\'s answer on the fast path, for many values', async () => {
    const { pyRound } = await import('../../../src/graphite-functions/python-numbers.js');
    // The exact path alone: the decimal expansion rounded half to even (what pyRound falls back to near a tie).
    const exact = (x: number) => {
      const text = Math.abs(x).toFixed(100);
      const point = text.indexOf('.');
      let whole = BigInt(text.slice(0, point) + text.slice(point + 1, point + 7));
      const rest = text.slice(point + 7);
      if (rest[0]! > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || whole % 2n === 1n))) whole += 1n;
      const digits = whole.toString().padStart(7, '0');
      return Math.sign(x) * Number(`${digits.slice(0, -6)}.${digits.slice(-6)}`);
    };
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i += 1) {
      const x = (random() - 0.5) * 10 ** Math.floor(random() * 12 - 4);
      expect(pyRound(x, 6)).toBe(exact(x));
    }
    for (const tie of [0.0078125, 2.5e-7 * 2, 1.0000005, 0.0000125]) expect(pyRound(tie, 6)).toBe(exact(tie));
  });
});
