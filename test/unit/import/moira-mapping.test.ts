import { describe, expect, it } from 'vitest';
import { importMoira } from '../../../src/import/moira/import-moira.js';
import { mapMoiraSchedule } from '../../../src/import/moira/map-schedule.js';
import type { MoiraTrigger } from '../../../src/import/moira/read-moira.js';

const trigger = (fields: Partial<MoiraTrigger>): MoiraTrigger => ({ id: 't1', name: 'T', targets: ['a.b'], tags: ['team'], ttl_state: 'OK', ttl: 600, ...fields });
const only = (fields: Partial<MoiraTrigger>) => importMoira({ triggers: [trigger(fields)], subscriptions: [], contacts: [] }).rules[0]!;

describe('Moira triggers', () => {
  it('makes two alerts of a rising trigger with both levels, the warning one named as such', () => {
    const rule = only({ warn_value: 80, error_value: 90, trigger_type: 'rising' });
    expect(rule.alerts.map((a) => [a.name, a.alert_criteria])).toEqual([
      ['T', { type: 'above', above_value: 90 }],
      ['T (warning)', { type: 'above', above_value: 80 }],
    ]);
    expect(rule.alerts.every((a) => a.notification_type === 'state_change')).toBe(true);
  });

  it('infers falling when error is below warn and trigger_type is absent', () => {
    const rule = only({ warn_value: 20, error_value: 10 });
    expect(rule.alerts[0]!.alert_criteria).toEqual({ type: 'below', below_value: 10 });
  });

  it('ORs a missing criterion over t1 for ttl when ttl_state pages (ERROR, WARN, NODATA)', () => {
    for (const ttl_state of ['ERROR', 'WARN', 'NODATA']) {
      const alert = only({ error_value: 5, warn_value: 5, ttl_state, ttl: 300 }).alerts[0]!;
      expect(alert.additional_criteria).toEqual({ b: { type: 'missing', time_period: 5, metric: 'a.b' } });
      expect(alert.expression).toBe('a || b');
    }
    const quiet = only({ error_value: 5, warn_value: 5, ttl_state: 'OK' }).alerts[0]!;
    expect(quiet.additional_criteria).toBeUndefined();
    expect(quiet.on_no_data).toBe('ignore');
  });

  it('maps an expression to letters and keeps its && / || shape', () => {
    const rule = only({ targets: ['x', 'y'], trigger_type: 'expression', expression: 't1 > 1 && (t2 < 0 || t1 / t2 > 3) ? ERROR : OK' });
    const alert = rule.alerts[0]!;
    expect(alert.metric).toBe('x');
    expect(alert.additional_criteria).toEqual({
      b: { type: 'below', below_value: 0, metric: 'y' },
      c: { type: 'above', above_value: 3, metric: 'divideSeries(x, y)' },
    });
    expect(alert.expression).toBe('a && (b || c)');
    // Without subscriptions the channels are unknown: said once, nothing else left behind.
    expect(rule.dropped.map((d) => d.field)).toEqual(['tags']);
  });

  it('names every field it leaves behind, and names a trigger it cannot import at all', () => {
    const rule = only({ trigger_type: 'expression', expression: 't1 > 1 ? ERROR : PREV_STATE', brand_new_field: 1 });
    expect(rule.alerts).toEqual([]);
    expect(rule.dropped[0]).toMatchObject({ field: 'expression', why: expect.stringMatching(/^not imported: PREV_STATE/) });
    const partial = only({ error_value: 1, warn_value: 1, brand_new_field: { a: 1 } });
    expect(partial.dropped).toContainEqual({ field: 'brand_new_field', value: '{"a":1}', why: 'not known to the importer' });
  });

  it('routes each level to the contacts of the subscriptions that take it', () => {
    const result = importMoira({
      triggers: [trigger({ warn_value: 1, error_value: 2, tags: ['team', 'db'] })],
      subscriptions: [
        { id: 's1', tags: ['team'], contacts: ['c1'] },
        { id: 's2', tags: ['db'], contacts: ['c2'], ignore_warnings: true },
        { id: 's3', tags: ['other'], contacts: ['c3'] },
      ],
      contacts: [
        { id: 'c1', type: 'mail', value: 'team@example.com' },
        { id: 'c2', type: 'pagerduty', value: 'k'.repeat(32), name: 'DB pager' },
        { id: 'c3', type: 'mail', value: 'other@example.com' },
      ],
    });
    const [error, warning] = result.rules[0]!.alerts;
    expect(error!.notification_channels).toEqual(['DB pager', 'mail team@example.com']);
    expect(warning!.notification_channels).toEqual(['mail team@example.com']);
    // Only the channels alerts use are written.
    expect(result.channels.map((c) => c.description)).toEqual(['mail team@example.com', 'DB pager']);
  });

  it('gives a second trigger with the same title its id, so names stay unique', () => {
    const result = importMoira({ triggers: [trigger({ id: 'aaa', error_value: 1, warn_value: 1 }), trigger({ id: 'bbb', error_value: 1, warn_value: 1 })], subscriptions: [], contacts: [] });
    expect(result.rules.map((r) => r.alerts[0]!.name)).toEqual(['T', 'T [bbb]']);
  });
});

describe("Moira's sched", () => {
  it('mutes the quiet hours of checked days and the whole of unchecked days, in the zone it names', () => {
    const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((name, i) => ({ name, enabled: i < 5 }));
    expect(mapMoiraSchedule({ days, tzOffset: -330, startOffset: 540, endOffset: 1079 })).toEqual({
      schedules: [
        { name: 'Moira: quiet 18:00 for 900 min on mon, tue, wed, thu, fri (UTC+5:30)', start_time: '18:00', duration: 900, timezone: 'UTC+5:30', repeat: ['mon', 'tue', 'wed', 'thu', 'fri'] },
        { name: 'Moira: not checked on sat, sun (UTC+5:30)', start_time: '00:00', duration: 1440, timezone: 'UTC+5:30', repeat: ['sat', 'sun'] },
      ],
    });
  });

  it('needs no mute for a trigger checked all day every day, and wraps past midnight', () => {
    expect(mapMoiraSchedule({ days: [], tzOffset: 0, startOffset: 0, endOffset: 1439 })).toEqual({ schedules: [] });
    const night = mapMoiraSchedule({ days: [], startOffset: 1320, endOffset: 359 });
    expect(night).toMatchObject({ schedules: [{ start_time: '06:00', duration: 960 }] });
  });

  it('refuses offsets that are not minutes of a day', () => {
    expect(mapMoiraSchedule({ startOffset: 2000 })).toEqual({ why: 'startOffset and endOffset must be whole minutes of a day' });
  });
});
