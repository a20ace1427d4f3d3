import { describe, expect, it } from 'vitest';
import { StreamIngest } from '../../../../src/stream/stream-ingest.js';
import { StreamEvaluator, type StreamAlert } from '../../../../src/server/stream/stream-evaluator.js';
import { criteriaOf } from '../../../../src/evaluation/judge-alert.js';
import { judgeCriterion } from '../../../../src/evaluation/judge-alert.js';
import type { EvaluationAlert } from '../../../../src/server/store/evaluation-store.js';
import type { AlertCriteria } from '../../../../src/model/types.js';

const B = 1_800_000_000 - (1_800_000_000 % 30);

function setup(startMs: number) {
  let nowMs = startMs;
  const ingest = new StreamIngest<StreamAlert>({ cacheSize: 100, maxSeries: 100, maxPointsPerSeries: 1000 });
  const judged: string[][] = [];
  const stream = new StreamEvaluator({
    ingest,
    receiver: { lastConnectedAt: () => nowMs },
    judgeSoon: (ids) => judged.push([...ids]),
    settleSeconds: 6,
    now: () => nowMs,
  });
  return { ingest, stream, judged, setNow: (ms: number) => (nowMs = ms) };
}

const alertOf = (metric: string, criteria: AlertCriteria) => ({ id: 'a1', metric, alertCriteria: criteria, additionalCriteria: {}, settleSeconds: null }) as unknown as EvaluationAlert;

describe('the stream evaluator', () => {
  it('warms from render, then judges per-second points on the stream up to their complete buckets', () => {
    const { ingest, stream, judged, setNow } = setup((B + 200) * 1000);
    const criteria = { type: 'above', above_value: 95, time_period: 1 } as AlertCriteria;
    const alert = alertOf('relay.s0', criteria);
    const list = criteriaOf(alert.metric, criteria);
    const warm = stream.route(alert, list, 6, (B + 200) * 1000);
    expect(warm.mode).toBe('warm');
    if (warm.mode !== 'warm') return;
    expect(warm.queries).toEqual([{ target: 'relay.s0', fromMinutes: 4 }]);
    const datapoints: [number, number][] = [];
    for (let t = B + 20; t < B + 200; t += 10) datapoints.push([10, t]);
    const inputs = warm.inputs([{ ok: true, series: [{ target: 'relay.s0', datapoints }] }]);
    expect(inputs[0]!.result.ok).toBe(true);
    expect(judgeCriterion(list[0]!, inputs[0]!.result.ok ? inputs[0]!.result.series : [], B + 200, undefined, inputs[0]!.settleSeconds).state).toBe('clear');
    // Per-second points for two minutes: completions ask for judging; the stream route judges clear throughout.
    for (let t = B + 200; t < B + 320; t += 1) {
      setNow(t * 1000 + 500);
      ingest.accept([{ path: 'relay.s0', value: 10, timestamp: t }]);
      const route = stream.route(alert, list, 6, t * 1000 + 500);
      expect(route.mode, `at +${t - B}`).toBe('stream');
      if (route.mode !== 'stream') return;
      const [input] = route.inputs();
      const outcome = judgeCriterion(list[0]!, input!.result.ok ? input!.result.series : [], t, undefined, input!.settleSeconds);
      expect(outcome.state, `at +${t - B}: ${JSON.stringify(input)}`).toBe('clear');
    }
    expect(judged.length).toBeGreaterThanOrEqual(3);
  });
});
