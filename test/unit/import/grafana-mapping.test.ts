import { describe, expect, it } from 'vitest';
import { importGrafana } from '../../../src/import/grafana/import-grafana.js';
import type { GrafanaRule } from '../../../src/import/grafana/read-grafana.js';

/** A rule as Grafana exports it: query A (Graphite), reduce B, threshold C. */
function rule(options: { target?: string; reducer?: string; evaluator?: { type: string; params: number[] }; range?: number; for?: string; extra?: Partial<GrafanaRule> }): GrafanaRule {
  const range = { from: options.range ?? 600, to: 0 };
  return {
    uid: 'u1',
    title: 'R',
    condition: 'C',
    data: [
      { refId: 'A', relativeTimeRange: range, datasourceUid: 'g', model: { refId: 'A', target: options.target ?? 'a.b' } },
      { refId: 'B', relativeTimeRange: range, datasourceUid: '__expr__', model: { type: 'reduce', expression: 'A', reducer: options.reducer ?? 'last', refId: 'B' } },
      { refId: 'C', relativeTimeRange: range, datasourceUid: '__expr__', model: { type: 'threshold', expression: 'B', refId: 'C', conditions: [{ evaluator: options.evaluator ?? { type: 'gt', params: [5] } }] } },
    ],
    for: options.for ?? '0s',
    noDataState: 'OK',
    execErrState: 'OK',
    notification_settings: { receiver: 'x' },
    ...options.extra,
  };
}
const mapOne = (r: GrafanaRule) => importGrafana({ groups: [{ folder: 'F', name: 'g', rules: [r] }], contactPoints: [] }).rules[0]!;

describe("Grafana's rules", () => {
  it('maps last + gt + for to above with the for as the window', () => {
    expect(mapOne(rule({ for: '5m' })).alerts[0]).toMatchObject({ metric: 'a.b', alert_criteria: { type: 'above', above_value: 5, time_period: 5 } });
  });

  it('maps min > N (and max < N) over the range to the window itself: every point must breach', () => {
    expect(mapOne(rule({ reducer: 'min', range: 900, for: '10m' })).alerts[0]).toMatchObject({ metric: 'a.b', alert_criteria: { time_period: 25 } });
    expect(mapOne(rule({ reducer: 'max', evaluator: { type: 'lt', params: [1] }, range: 300 })).alerts[0]).toMatchObject({ alert_criteria: { type: 'below', below_value: 1, time_period: 5 } });
  });

  it("maps mean, sum, max and min otherwise to graphite's moving functions over the range", () => {
    expect(mapOne(rule({ reducer: 'mean', range: 300 })).alerts[0]!.metric).toBe("movingAverage(a.b, '5min')");
    expect(mapOne(rule({ reducer: 'sum', range: 90 })).alerts[0]!.metric).toBe("movingSum(a.b, '90s')");
    expect(mapOne(rule({ reducer: 'max', range: 600 })).alerts[0]!.metric).toBe("movingMax(a.b, '10min')");
    expect(mapOne(rule({ reducer: 'count' })).dropped[0]).toMatchObject({ why: expect.stringMatching(/^not imported: the count reducer/) });
  });

  it('maps outside_range to outside_bounds and within_range to two criteria joined by &&', () => {
    expect(mapOne(rule({ evaluator: { type: 'outside_range', params: [100, 10] } })).alerts[0]!.alert_criteria).toEqual({ type: 'outside_bounds', below_value: 10, above_value: 100 });
    const within = mapOne(rule({ evaluator: { type: 'within_range', params: [10, 100] } })).alerts[0]!;
    expect(within.alert_criteria).toEqual({ type: 'above', above_value: 10 });
    expect(within.additional_criteria).toEqual({ b: { type: 'below', below_value: 100, metric: 'a.b' } });
    expect(within.expression).toBe('a && b');
  });

  it('reads a math condition `$B > N` and a classic condition', () => {
    const math = rule({});
    math.data![2] = { refId: 'C', datasourceUid: '__expr__', model: { type: 'math', expression: '$B < 7' } };
    expect(mapOne(math).alerts[0]!.alert_criteria).toEqual({ type: 'below', below_value: 7 });
    const classic: GrafanaRule = { title: 'K', condition: 'B', data: [rule({}).data![0]!, { refId: 'B', datasourceUid: '__expr__', model: { type: 'classic_conditions', conditions: [{ evaluator: { type: 'gt', params: [3] }, query: { params: ['A'] }, reducer: { type: 'avg' } }] } }] };
    expect(mapOne(classic).alerts[0]!.metric).toBe("movingAverage(a.b, '10min')");
  });

  it('maps noDataState and execErrState, and repeat_interval to reminders', () => {
    const alert = mapOne(rule({ target: 'sumSeries(a.*)', extra: { noDataState: 'Alerting', execErrState: 'OK', notification_settings: { receiver: 'x', repeat_interval: '30m' } } })).alerts[0]!;
    expect(alert).toMatchObject({ on_no_data: 'alerting', on_query_failure: 'ignore', notification_type: ['every', 30] });
  });

  it('does not import a rule on another data source, and says so', () => {
    const prom = rule({});
    prom.data![0] = { refId: 'A', datasourceUid: 'p', model: { expr: 'up == 0', refId: 'A' } };
    const mapped = mapOne(prom);
    expect(mapped.alerts).toEqual([]);
    expect(mapped.dropped[0]!.why).toMatch(/not imported: the condition does not read one Graphite query/);
  });

  it('routes to the contact point by name, one channel per mappable integration', () => {
    const result = importGrafana({
      groups: [{ folder: 'F', rules: [rule({ extra: { notification_settings: { receiver: 'Team' } } })] }],
      contactPoints: [{ name: 'Team', receivers: [{ type: 'slack', settings: { url: 'https://hooks.slack.com/services/A' } }, { type: 'email', settings: { addresses: 'a@example.com;b@example.com' } }, { type: 'telegram', settings: {} }] }],
    });
    expect(result.rules[0]!.alerts[0]!.notification_channels).toEqual(['Team', 'Team (email)']);
    expect(result.channels).toEqual([
      { description: 'Team', type: 'slack', destination: 'https://hooks.slack.com/services/A' },
      { description: 'Team (email)', type: 'email', destination: 'a@example.com,b@example.com' },
    ]);
    expect(result.droppedOther).toEqual([{ object: 'contact point "Team"', field: 'type', value: 'telegram', why: 'no alertform channel type for this integration' }]);
  });
});
