import type { FetchedSeries } from '../../../src/graphite-functions/index.js';

/**
 * The points both sides get: written into carbon-cache for graphite-web, and handed to the function engine as
 * fetched series. Deterministic, with fractions (so the order of floating-point operations shows), gaps, a
 * stretch with no data, counters that wrap and reset, and series of 10, 20, 30 and 60 second steps.
 */
export interface WrittenSeries {
  path: string;
  step: number;
  points: [number, number][]; // [time, value]
}

/** carbon's storage-schemas for the steps (the default rule keeps 10 s points). */
export const SCHEMAS = [
  { pattern: '^gf\\.coarse\\.', retentions: '60s:1d' },
  { pattern: '^gf\\.mid\\.', retentions: '20s:1d' },
  { pattern: '^gf\\.half\\.', retentions: '30s:1d' },
];

function stepFor(path: string): number {
  if (path.startsWith('gf.coarse.')) return 60;
  if (path.startsWith('gf.mid.')) return 20;
  if (path.startsWith('gf.half.')) return 30;
  return 10;
}

/** Every series from `base` to `end` (unix seconds, `base` a multiple of 60). */
export function makeSeries(base: number, end: number): WrittenSeries[] {
  const out: WrittenSeries[] = [];
  const gauge = (path: string, value: (i: number) => number | null) => {
    const step = stepFor(path);
    const points: [number, number][] = [];
    for (let i = 0, t = base; t <= end; i += 1, t += step) {
      const v = value(i);
      if (v !== null) points.push([t, v]);
    }
    out.push({ path, step, points });
  };
  // Requests per host: fractions, a missing point every 7th (h1) or 11th (h2), h3 silent for 15 minutes.
  gauge('gf.web.h1.requests', (i) => (i % 7 === 3 ? null : ((i * 37) % 101) / 7 + 10));
  gauge('gf.web.h2.requests', (i) => (i % 11 === 5 ? null : ((i * 53) % 89) / 3 + 0.1));
  gauge('gf.web.h3.requests', (i) => (i >= 300 && i < 390 ? null : ((i * 29) % 97) * 1.5 - 20));
  for (const host of ['h1', 'h2', 'h3']) gauge(`gf.web.${host}.total`, (i) => (i % 13 === 0 ? 0 : 150 + ((i * 17) % 61)));
  // Counters: c1 resets to 0 every 100 points and misses some; c2 wraps at 5000 and never misses.
  gauge('gf.counter.c1', (i) => (i % 17 === 9 ? null : (i % 100) * 12.5));
  gauge('gf.counter.c2', (i) => (i * 37 + 4000) % 5000);
  gauge('gf.coarse.h1.requests', (i) => (i % 5 === 2 ? null : ((i * 41) % 73) / 4));
  gauge('gf.coarse.h2.requests', (i) => ((i * 13) % 31) + 0.5);
  gauge('gf.coarse.counter', (i) => i * 600 + ((i * 7) % 11));
  gauge('gf.mid.h1.requests', (i) => (i % 9 === 4 ? null : ((i * 19) % 43) / 6));
  gauge('gf.half.h1.requests', (i) => ((i * 23) % 59) / 8 - 1);
  return out;
}

/** The engine's fetch over the written points: each series with its step and every point written. */
export function toFetched(series: readonly WrittenSeries[]): FetchedSeries[] {
  return series.map((one) => ({ target: one.path, step: one.step, datapoints: one.points.map(([t, v]) => [v, t] as [number, number]) }));
}
