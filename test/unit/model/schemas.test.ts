import { describe, expect, it } from 'vitest';
import { describeAjvErrors, validatorFor } from '../../../src/model/schemas.js';

const check = (name: Parameters<typeof validatorFor>[0], def: string | undefined, value: unknown) => {
  const validate = validatorFor(name, def);
  return validate(value) ? [] : describeAjvErrors(validate.errors);
};

describe('the JSON Schemas', () => {
  it('accept a complete composite alert', () => {
    expect(
      check('alert', 'create', {
        name: 'disk',
        metric: 'sumSeries(host.*.disk)',
        alert_criteria: { type: 'outside_bounds', above_value: 90, below_value: 5, time_period: 5 },
        additional_criteria: { b: { type: 'missing', time_period: 10, metric: 'host.*.up' } },
        expression: 'a || b',
        notification_type: ['every', 15],
        on_query_failure: 'ignore',
      }),
    ).toEqual([]);
  });

  it('name an unknown field such as the seed typo above_vale', () => {
    expect(
      check('alert', 'create', { name: 'x', metric: 'm', alert_criteria: { type: 'above', above_vale: 1 } }),
    ).toEqual([
      { path: 'alert_criteria.above_value', message: 'is required' },
      { path: 'alert_criteria.above_vale', message: 'unknown field "above_vale"' },
    ]);
  });

  it('require time_period for missing-data criteria', () => {
    expect(check('alert', 'create', { name: 'x', metric: 'm', alert_criteria: { type: 'missing' } })).toEqual([
      { path: 'alert_criteria.time_period', message: 'is required' },
    ]);
  });

  it('explain a bad notification_type in one line', () => {
    expect(check('alert', 'update', { notification_type: ['every', 0] })).toEqual([
      { path: 'notification_type', message: 'must be "state_change", ["state_change"] or ["every", <minutes>]' },
    ]);
  });

  it('check definitions documents, including muted', () => {
    expect(
      check('definitions', undefined, {
        alerts: [{ name: 'a', metric: 'm', alert_criteria: { type: 'below', below_value: 1 }, muted: { until: 'soon' } }],
        extra: [],
      }),
    ).toEqual([
      { path: 'extra', message: 'unknown field "extra"' },
      { path: 'alerts.0.muted', message: 'must be false or {until: <ISO 8601 time>}' },
    ]);
  });

  it('check channel types and schedule times', () => {
    expect(check('channel', 'create', { type: 'sms', description: 'd', destination: 'x' })).toEqual([
      { path: 'type', message: 'must be one of "email", "pagerduty", "slack", "webhook", "victorops", "opsgenie"' },
    ]);
    expect(check('schedule', 'create', { name: 'n', start_time: '24:00', duration: 5 })).toHaveLength(1);
  });
});
