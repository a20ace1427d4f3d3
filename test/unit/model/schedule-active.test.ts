import { describe, expect, it } from 'vitest';
import { activeScheduleEnd, isScheduleActive, type ScheduleTiming } from '../../../src/model/schedule-active.js';

const at = (iso: string) => Date.parse(iso);
const schedule = (overrides: Partial<ScheduleTiming>): ScheduleTiming => ({
  startTime: '22:00',
  duration: 60,
  timezone: 'UTC',
  repeat: [],
  anchor: at('2026-01-05T00:00:00Z'),
  ...overrides,
});

describe('isScheduleActive', () => {
  it('a one-time schedule runs once, at the first start_time after its anchor', () => {
    const once = schedule({});
    expect(isScheduleActive(once, at('2026-01-05T21:59:59Z'))).toBe(false);
    expect(isScheduleActive(once, at('2026-01-05T22:00:00Z'))).toBe(true);
    expect(isScheduleActive(once, at('2026-01-05T22:59:59Z'))).toBe(true);
    expect(isScheduleActive(once, at('2026-01-05T23:00:00Z'))).toBe(false);
    expect(isScheduleActive(once, at('2026-01-06T22:30:00Z'))).toBe(false);
  });

  it('a one-time schedule made after today\'s start_time runs tomorrow', () => {
    const late = schedule({ anchor: at('2026-01-05T22:30:00Z') });
    expect(isScheduleActive(late, at('2026-01-05T22:45:00Z'))).toBe(false);
    expect(isScheduleActive(late, at('2026-01-06T22:15:00Z'))).toBe(true);
  });

  it('a repeating schedule runs on its week days only, in its timezone', () => {
    // 09:00 in UTC+2 on Mondays = 07:00 UTC. 2026-01-05 is a Monday.
    const mondays = schedule({ startTime: '09:00', duration: 30, timezone: 'UTC+2', repeat: ['mon'] });
    expect(isScheduleActive(mondays, at('2026-01-05T07:10:00Z'))).toBe(true);
    expect(isScheduleActive(mondays, at('2026-01-05T09:10:00Z'))).toBe(false);
    expect(isScheduleActive(mondays, at('2026-01-06T07:10:00Z'))).toBe(false);
    expect(isScheduleActive(mondays, at('2026-01-12T07:29:59Z'))).toBe(true);
  });

  it('judges the week day in the schedule\'s timezone, not in UTC', () => {
    // Monday 01:00 in UTC+5 is Sunday 20:00 UTC.
    const mondayEarly = schedule({ startTime: '01:00', duration: 60, timezone: 'UTC+5', repeat: ['mon'] });
    expect(isScheduleActive(mondayEarly, at('2026-01-04T20:30:00Z'))).toBe(true);
    expect(isScheduleActive(mondayEarly, at('2026-01-05T20:30:00Z'))).toBe(false);
    // Friday 23:00 in UTC-5:30 is Saturday 04:30 UTC.
    const fridayLate = schedule({ startTime: '23:00', duration: 30, timezone: 'UTC-5:30', repeat: ['fri'] });
    expect(isScheduleActive(fridayLate, at('2026-01-10T04:45:00Z'))).toBe(true);
  });

  it('an occurrence runs past midnight into the next day, even a day that is not listed', () => {
    const overnight = schedule({ startTime: '23:00', duration: 180, repeat: ['sun'] });
    // Sunday 2026-01-04 23:00 UTC until Monday 02:00.
    expect(isScheduleActive(overnight, at('2026-01-05T01:59:00Z'))).toBe(true);
    expect(isScheduleActive(overnight, at('2026-01-05T02:00:00Z'))).toBe(false);
    const week = schedule({ startTime: '00:00', duration: 10080, repeat: ['mon'] });
    expect(isScheduleActive(week, at('2026-01-11T23:59:00Z'))).toBe(true);
  });

  it('reports the end of the covering occurrence', () => {
    const daily = schedule({ startTime: '10:00', duration: 90, repeat: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] });
    expect(activeScheduleEnd(daily, at('2026-01-07T10:30:00Z'))).toBe(at('2026-01-07T11:30:00Z'));
    expect(activeScheduleEnd(daily, new Date('2026-01-07T12:00:00Z'))).toBeNull();
  });
});
