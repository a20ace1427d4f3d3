import { describe, expect, it } from 'vitest';
import { judgeAlert, judgeCriterion, listCriteria, type CriterionOutcome } from '../../../src/evaluation/judge-alert.js';
import { makeSeries } from '../../helpers/fake-render-server.js';

const NOW = 1_700_000_010;

describe('wildcards', () => {
  it('judges each series alone and lists only the breaching ones', () => {
    const outcome = judgeCriterion({ letter: 'a', metric: 'web.*.cpu', criteria: { type: 'above', above_value: 90 } }, [
      makeSeries('web.1.cpu', [10, 10, 10], NOW),
      makeSeries('web.2.cpu', [95, 96, 97], NOW, 30),
      makeSeries('web.3.cpu', [null, null, null], NOW),
      makeSeries('web.4.cpu', [91, 91, 91], NOW),
    ], NOW);
    expect(outcome.state).toBe('holds');
    expect(outcome.triggered).toEqual([
      { metric: 'web.2.cpu', value: 97 },
      { metric: 'web.4.cpu', value: 91 },
    ]);
  });

  it('is clear when no series breaches and unknown when no series has data', () => {
    const criterion = { letter: 'a', metric: 'web.*.cpu', criteria: { type: 'above' as const, above_value: 90 } };
    expect(judgeCriterion(criterion, [makeSeries('web.1.cpu', [10, 10, 10], NOW), makeSeries('web.2.cpu', [null], NOW)], NOW).state).toBe('clear');
    expect(judgeCriterion(criterion, [makeSeries('web.1.cpu', [null, null, null], NOW)], NOW).state).toBe('unknown');
    expect(judgeCriterion(criterion, [], NOW).state).toBe('unknown');
  });

  it('counts a missing query that matches nothing as one missing series named by the query', () => {
    const outcome = judgeCriterion({ letter: 'a', metric: 'gone.*.heartbeat', criteria: { type: 'missing', time_period: 5 } }, [], NOW);
    expect(outcome).toMatchObject({ state: 'holds', triggered: [{ metric: 'gone.*.heartbeat', value: null }] });
  });

  it('judges missing with its history query: a host silent in the window but known from the last 24 h triggers', () => {
    const criterion = { letter: 'a', metric: 'hosts.*.beat', criteria: { type: 'missing' as const, time_period: 5 } };
    const window = [makeSeries('hosts.a.beat', [1, 1], NOW, 30), makeSeries('hosts.b.beat', [null, null], NOW, 30)];
    const history = [
      makeSeries('hosts.a.beat', [1, 1, 1], NOW, 1800),
      makeSeries('hosts.b.beat', [1, null, null], NOW, 1800),
      makeSeries('hosts.c.beat', [1, null, null], NOW, 1800), // its whisper file is gone from the window answer
      makeSeries('hosts.d.beat', [null, null, null], NOW, 1800), // never had data: does not count
    ];
    const outcome = judgeCriterion(criterion, window, NOW, history);
    expect(outcome.triggered).toEqual([
      { metric: 'hosts.b.beat', value: null },
      { metric: 'hosts.c.beat', value: null },
    ]);
    expect(judgeCriterion(criterion, [], NOW, []).triggered).toEqual([{ metric: 'hosts.*.beat', value: null }]);
  });

  it('judges missing per series: one silent host among reporting ones triggers alone', () => {
    const silent = makeSeries('hosts.b.heartbeat', [1, 1, 1, ...Array<null>(12).fill(null)], NOW, 30);
    const alive = makeSeries('hosts.a.heartbeat', Array<number>(15).fill(1), NOW, 30);
    const outcome = judgeCriterion({ letter: 'a', metric: 'hosts.*.heartbeat', criteria: { type: 'missing', time_period: 5 } }, [alive, silent], NOW);
    expect(outcome.triggered).toEqual([{ metric: 'hosts.b.heartbeat', value: null }]);
  });
});

describe('the settle delay', () => {
  const sum = { letter: 'a', metric: 'sumSeries(x.*)', criteria: { type: 'above' as const, above_value: 95, time_period: 1 } };
  // 10 s data: four complete minutes of 100, then a newest bucket that holds the early collectors' share only (75).
  const start = 1_700_000_100 - 300; // a bucket start
  const datapoints: [number | null, number][] = [];
  for (let t = start; t < start + 270; t += 10) datapoints.push([100, t]);
  datapoints.push([75, start + 270], [null, start + 280]);
  const series = [{ target: 'sumSeries(x.*)', datapoints }];

  it('judges without a delay the half-filled newest bucket, and recovers on it', () => {
    expect(judgeCriterion(sum, series, start + 285).state).toBe('clear');
  });

  it('leaves out every bucket that reaches past now - delay, so late points cannot resolve anything', () => {
    const outcome = judgeCriterion(sum, series, start + 285, undefined, 10);
    expect(outcome.state).toBe('holds');
    expect(outcome.triggered).toEqual([{ metric: 'sumSeries(x.*)', value: 100 }]);
    expect(outcome.latest.get('sumSeries(x.*)')).toBe(100);
    // A bucket that ends exactly at the cutoff is complete and judged.
    expect(judgeCriterion(sum, series, start + 300 + 10, undefined, 10).state).toBe('clear');
  });

  it('shifts the window of missing back by the delay', () => {
    const missing = { letter: 'a', metric: 'x.beat', criteria: { type: 'missing' as const, time_period: 1 } };
    const beat = [{ target: 'x.beat', datapoints: [[1, start] as [number, number], [null, start + 60] as [null, number]] }];
    expect(judgeCriterion(missing, beat, start + 90).state).toBe('holds');
    // 60 s data: the point at `start` covers a whole minute, judged once that minute is older than the delay.
    expect(judgeCriterion(missing, beat, start + 119, undefined, 60).state).toBe('holds');
    expect(judgeCriterion(missing, beat, start + 120, undefined, 60).state).toBe('clear');
  });
});

function outcome(letter: string, state: CriterionOutcome['state'], metric = `${letter}.m`): CriterionOutcome {
  return {
    letter,
    metric,
    criteria: { type: 'above', above_value: 1 },
    state,
    triggered: state === 'holds' ? [{ metric, value: 5 }] : [],
    latest: new Map(),
  };
}

describe('composite alerts', () => {
  it('reads the letters from metric, alert_criteria and additional_criteria', () => {
    const criteria = listCriteria({
      metric: 'x',
      alert_criteria: { type: 'above', above_value: 1 },
      additional_criteria: { C: { type: 'below', below_value: 0, metric: 'z' }, b: { type: 'missing', time_period: 5, metric: 'y' } },
    });
    expect(criteria.map((c) => `${c.letter}:${c.metric}:${c.criteria.type}`)).toEqual(['a:x:above', 'b:y:missing', 'c:z:below']);
    expect(criteria[1]!.criteria).toEqual({ type: 'missing', time_period: 5 });
  });

  it('applies && before || and lists the metrics of the letters that hold', () => {
    const judged = judgeAlert('a || b && c', [outcome('a', 'clear'), outcome('b', 'holds'), outcome('c', 'holds')]);
    expect(judged.state).toBe('holds');
    expect(judged.triggered.map((t) => t.metric)).toEqual(['b.m', 'c.m']);
    expect(judgeAlert('a || b && c', [outcome('a', 'clear'), outcome('b', 'holds'), outcome('c', 'clear')]).state).toBe('clear');
    expect(judgeAlert('(a || b) && c', [outcome('a', 'holds'), outcome('b', 'clear'), outcome('c', 'holds')]).state).toBe('holds');
  });

  it('stays unknown when a letter without data could still decide the expression', () => {
    expect(judgeAlert('a && b', [outcome('a', 'holds'), outcome('b', 'unknown')]).state).toBe('unknown');
    expect(judgeAlert('a && b', [outcome('a', 'clear'), outcome('b', 'unknown')]).state).toBe('clear');
    expect(judgeAlert('a || b', [outcome('a', 'holds'), outcome('b', 'unknown')]).state).toBe('holds');
    expect(judgeAlert('a || b', [outcome('a', 'clear'), outcome('b', 'unknown')]).state).toBe('unknown');
  });

  it('defaults an empty expression to a', () => {
    expect(judgeAlert('', [outcome('a', 'holds')]).state).toBe('holds');
  });
});
