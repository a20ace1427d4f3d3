import { describe, expect, it } from 'vitest';
import { isWindowActiveAt } from '../../../src/model/maintenance-window.js';
import { describeOccurrence, windowOccurrence } from '../../../src/model/window-occurrence.js';

// Saturday 2026-11-28 10:00 UTC.
const NOW = Date.parse('2026-11-28T10:00:00Z');
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('windowOccurrence', () => {
  it("finds a weekly window's next start by its zone's clock, and says it in that clock and in UTC", () => {
    const berlin = { start_time: '03:00', repeat: ['sun' as const], timezone: 'Europe/Berlin', duration: 90 };
    const next = windowOccurrence(berlin, NOW)!;
    expect([iso(next.start), iso(next.end), next.active]).toEqual(['2026-11-29T02:00:00.000Z', '2026-11-29T03:30:00.000Z', false]);
    expect(describeOccurrence(berlin, next)).toBe('next Sun 2026-11-29 03:00 Europe/Berlin (02:00 UTC), for 90 minutes');
    // The evaluator agrees: muted at the start, not a minute before.
    expect(isWindowActiveAt(berlin, next.start)).toBe(true);
    expect(isWindowActiveAt(berlin, next.start - 60_000)).toBe(false);
  });

  it('follows daylight saving: the same 03:00 is 01:00 UTC in summer', () => {
    const berlin = { start_time: '03:00', repeat: ['sun' as const], timezone: 'Europe/Berlin', duration: 60 };
    expect(iso(windowOccurrence(berlin, Date.parse('2026-06-01T00:00:00Z'))!.start)).toBe('2026-06-07T01:00:00.000Z');
  });

  it('returns the occurrence that covers now, a later day of the week, a one-off ahead, and none for one that is over', () => {
    const now = windowOccurrence({ start_time: '09:30', repeat: ['sat'], timezone: 'UTC', duration: 60 }, NOW)!;
    expect([iso(now.start), now.active]).toEqual(['2026-11-28T09:30:00.000Z', true]);
    expect(describeOccurrence({ start_time: '09:30', repeat: ['sat'], timezone: 'UTC', duration: 60 }, now)).toBe('active now, until Sat 2026-11-28 10:30 UTC');
    // Saturday's 09:00 is over: the next Saturday, a week on.
    expect(iso(windowOccurrence({ start_time: '09:00', repeat: ['sat'], timezone: 'UTC', duration: 30 }, NOW)!.start)).toBe('2026-12-05T09:00:00.000Z');
    // Late Friday at UTC+2 is still Friday there when it is Friday 21:00 UTC.
    expect(iso(windowOccurrence({ start_time: '23:00', repeat: ['fri'], timezone: 'UTC+2', duration: 60 }, NOW)!.start)).toBe('2026-12-04T21:00:00.000Z');
    expect(iso(windowOccurrence({ starts_at: '2026-12-24T22:00:00+01:00', duration: 60 }, NOW)!.start)).toBe('2026-12-24T21:00:00.000Z');
    const over = { starts_at: '2025-12-24T22:00:00+01:00', duration: 60 };
    expect(windowOccurrence(over, NOW)).toBeNull();
    expect(describeOccurrence(over, null)).toBe('over: its one occurrence has passed');
  });
});
