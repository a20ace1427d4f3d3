import { describe, expect, it } from 'vitest';
import { activeWindowEnd, isWindowActiveAt, isWindowTimezone, windowMatches } from '../../../src/model/maintenance-window.js';

const alert = { name: 'web3 disk full', metric: 'sumSeries(servers.dc1.web3.disk.*)', additional_criteria: { b: { metric: 'servers.dc1.web3.ping' } } };

describe('windowMatches', () => {
  it('matches name globs with * and ?', () => {
    expect(windowMatches({ match: { alert_names: ['web? disk*'] } }, alert)).toBe(true);
    expect(windowMatches({ match: { alert_names: ['db*', '*full'] } }, alert)).toBe(true);
    expect(windowMatches({ match: { alert_names: ['web disk*'] } }, alert)).toBe(false);
    // Regular-expression characters are literal.
    expect(windowMatches({ match: { alert_names: ['web3.disk full'] } }, alert)).toBe(false);
  });

  it('matches Graphite globs on the paths inside the queries and on the additional criteria', () => {
    expect(windowMatches({ match: { metrics: ['servers.dc1.*.disk.*'] } }, alert)).toBe(true);
    expect(windowMatches({ match: { metrics: ['servers.{dc1,dc2}.*.ping'] } }, alert)).toBe(true);
    expect(windowMatches({ match: { metrics: ['servers.dc2.*.*'] } }, alert)).toBe(false);
    // A glob that does not compile matches nothing.
    expect(windowMatches({ match: { metrics: ['servers.{dc1'] } }, alert)).toBe(false);
  });

  it('matches channels by the names given', () => {
    expect(windowMatches({ match: { channels: ['Ops', 'DB'] } }, { ...alert, notification_channels: ['DB'] })).toBe(true);
    expect(windowMatches({ match: { channels: ['Ops'] } }, { ...alert, notification_channels: ['DB'] })).toBe(false);
  });

  it('needs every key given to match', () => {
    expect(windowMatches({ match: { alert_names: ['web*'], channels: ['Ops'] } }, { ...alert, notification_channels: ['DB'] })).toBe(false);
    expect(windowMatches({ match: { alert_names: ['web*'], channels: ['Ops'] } }, { ...alert, notification_channels: ['Ops'] })).toBe(true);
  });

  it('an empty match matches nothing', () => {
    expect(windowMatches({ match: {} }, alert)).toBe(false);
    expect(windowMatches({ match: { alert_names: [] } }, alert)).toBe(false);
  });
});

describe('isWindowActiveAt', () => {
  it('a one-off window is active from starts_at for its duration', () => {
    const window = { starts_at: '2026-12-01T02:00:00+01:00', duration: 60 };
    expect(isWindowActiveAt(window, Date.parse('2026-12-01T00:59:59Z'))).toBe(false);
    expect(isWindowActiveAt(window, Date.parse('2026-12-01T01:00:00Z'))).toBe(true);
    expect(activeWindowEnd(window, Date.parse('2026-12-01T01:30:00Z'))).toBe(Date.parse('2026-12-01T02:00:00Z'));
    expect(isWindowActiveAt(window, Date.parse('2026-12-01T02:00:00Z'))).toBe(false);
  });

  it('a recurring window repeats on its days in its offset zone', () => {
    // 2026-11-29 is a Sunday.
    const window = { start_time: '23:00', repeat: ['sun' as const], timezone: 'UTC+2', duration: 120 };
    expect(isWindowActiveAt(window, Date.parse('2026-11-29T21:00:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, Date.parse('2026-11-29T22:59:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, Date.parse('2026-11-29T23:00:00Z'))).toBe(false);
    expect(isWindowActiveAt(window, Date.parse('2026-11-30T21:00:00Z'))).toBe(false);
  });

  it('places a recurring window by an IANA zone, daylight saving included', () => {
    const window = { start_time: '02:00', repeat: ['mon' as const, 'tue' as const, 'wed' as const, 'thu' as const, 'fri' as const, 'sat' as const, 'sun' as const], timezone: 'Europe/Berlin', duration: 30 };
    // Winter: UTC+1; summer: UTC+2.
    expect(isWindowActiveAt(window, Date.parse('2026-01-15T01:10:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, Date.parse('2026-01-15T00:10:00Z'))).toBe(false);
    expect(isWindowActiveAt(window, Date.parse('2026-07-15T00:10:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, Date.parse('2026-07-15T01:10:00Z'))).toBe(false);
  });

  it('a window with neither form is never active', () => {
    expect(isWindowActiveAt({ duration: 60 }, Date.now())).toBe(false);
  });
});

describe('isWindowTimezone', () => {
  it('takes UTC, offsets and IANA names', () => {
    for (const zone of ['UTC', 'UTC+2', 'UTC-5:30', 'Europe/Berlin', 'America/New_York']) expect(isWindowTimezone(zone)).toBe(true);
    for (const zone of ['Mars/Olympus', 'UTC+', '']) expect(isWindowTimezone(zone)).toBe(false);
  });
});
