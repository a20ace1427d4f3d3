import { evaluateTarget, type FetchedSeries } from '../../../src/graphite-functions/index.js';
import { compileGraphitePattern } from '../../../src/model/graphite-target/glob.js';

/** A series of `step` seconds from `start`, one value a step (null where missing). */
export function series(target: string, start: number, step: number, values: (number | null)[]): FetchedSeries {
  return { target, step, datapoints: values.map((value, i) => [value, start + i * step]) };
}

/** Evaluates a target over (from, until] on these series (paths matched as Graphite globs). */
export function evaluate(target: string, all: FetchedSeries[], range: { from: number; until: number }) {
  return evaluateTarget(target, (path) => all.filter((one) => compileGraphitePattern(path).test(one.target)), range);
}

/** The values of an answer's series, by name. */
export function valuesOf(answer: { target: string; datapoints: [number | null, number][] }[]): Record<string, (number | null)[]> {
  return Object.fromEntries(answer.map((one) => [one.target, one.datapoints.map((p) => p[0])]));
}
