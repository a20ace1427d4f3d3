import type { RenderSeries } from '../graphite/types.js';
import { isValue } from '../evaluation/buckets.js';
import type { AlertCriteria } from '../model/types.js';
import type { Episode } from './replay.js';
import type { ImpactChart } from './types.js';

/** Slots in a chart: enough to see a daily pattern over a week, few enough for a PR comment. */
export const CHART_SLOTS = 56;

/**
 * Reduces a criterion's series over the window to CHART_SLOTS values: per slot the worst value of any series
 * (highest for above and outside_bounds, lowest for below), the thresholds, and whether an episode overlapped it.
 */
export function buildChart(criteria: AlertCriteria, series: readonly RenderSeries[], episodes: readonly Episode[], start: number, end: number): ImpactChart {
  const slot = (end - start) / CHART_SLOTS;
  const worse = criteria.type === 'below' ? Math.min : Math.max;
  const values: (number | null)[] = new Array(CHART_SLOTS).fill(null);
  if (criteria.type !== 'missing') {
    for (const one of series) {
      for (const point of one.datapoints) {
        const [value, time] = point;
        if (!isValue(value) || time <= start || time > end) continue;
        const index = Math.min(CHART_SLOTS - 1, Math.floor((time - start) / slot));
        values[index] = values[index] === null ? value : worse(values[index]!, value);
      }
    }
  }
  const firing = Array.from({ length: CHART_SLOTS }, (_, i) => {
    const from = start + i * slot;
    const to = from + slot;
    return episodes.some((e) => e.start < to && (e.end ?? end) > from);
  });
  const thresholds = [criteria.above_value, criteria.below_value].filter((v): v is number => typeof v === 'number');
  return { slotHours: Math.round((slot / 3600) * 100) / 100, values: values.map((v) => (v === null ? null : roundShort(v))), thresholds, firing };
}

/** Three significant digits: a chart needs no more, and the comment stays small. */
function roundShort(value: number): number {
  return Number(value.toPrecision(3));
}
