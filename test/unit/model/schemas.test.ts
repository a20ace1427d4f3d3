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

describe('schema problems in words', () => {
  it('has words for every pattern of every schema, never the expression itself', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { PATTERN_WORDS } = await import('../../../src/model/schemas.js');
    const dir = new URL('../../../schemas/', import.meta.url);
    const patterns = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) (key === 'pattern' && typeof item === 'string' ? patterns.add(item) : walk(item));
    };
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) walk(JSON.parse(readFileSync(new URL(name, dir), 'utf8')));
    expect([...patterns].filter((pattern) => !(pattern in PATTERN_WORDS))).toEqual([]);
  });

  it('says a window start time, a duration, a limit and a type plainly', () => {
    const window = { name: 'w', match: {}, start_time: '2am', repeat: ['sun', 'sun'], duration: '2 hours', timezone: 5 };
    expect(check('maintenance-window', 'definition', window)).toEqual([
      { path: 'match', message: 'must not be empty' },
      { path: 'start_time', message: 'must look like 02:00 (a time of day, HH:MM, 24 h)' },
      { path: 'repeat', message: 'must not repeat an item (items 0 and 1 are the same)' },
      { path: 'timezone', message: 'must be a string' },
      { path: 'duration', message: expect.stringMatching(/^must be whole minutes/) },
    ]);
    expect(check('serve-config', undefined, { eval_interval: 'soon', port: 70000 })).toEqual([
      { path: 'port', message: 'must be at most 65535' },
      { path: 'eval_interval', message: 'must be a duration such as 90s, 15m, 2h or 1h30m' },
    ]);
  });
});
