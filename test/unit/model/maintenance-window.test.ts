import { describe, expect, it } from 'vitest';
import { activeWindowEnd, isWindowActiveAt, isWindowTimezone, windowMatches, type WindowAlert } from '../../../src/model/maintenance-window.js';
import { threadCpuMs } from '../../helpers/event-loop-lag.js';

const alert = (name: string, metric: string, channels: string[] = [], extra: string[] = []): WindowAlert => ({
  name,
  metric,
  notification_channels: channels,
  additional_criteria: Object.fromEntries(extra.map((target, i) => [`extra${i}`, { metric: target }])),
});

describe('windowMatches', () => {
  it('globs alert names with * and ? (a star crosses dots; everything else is literal)', () => {
    const window = { match: { alert_names: ['web-?.cpu*', 'db [primary]'] } };
    expect(windowMatches(window, alert('web-1.cpu high', 'x'))).toBe(true);
    expect(windowMatches(window, alert('web-12.cpu', 'x'))).toBe(false);
    expect(windowMatches(window, alert('db [primary]', 'x'))).toBe(true);
    expect(windowMatches(window, alert('db p', 'x'))).toBe(false);
  });

  it('matches Graphite globs against the paths an alert reads, its additional criteria included, node by node', () => {
    const window = { match: { metrics: ['servers.dc1.*.cpu', 'db.{a,b}.load'] } };
    expect(windowMatches(window, alert('a', 'servers.dc1.web3.cpu'))).toBe(true);
    expect(windowMatches(window, alert('a', 'servers.dc1.web3.disk.cpu'))).toBe(false);
    expect(windowMatches(window, alert('a', 'sumSeries(servers.dc1.web3.cpu)'))).toBe(true);
    // A wildcard in the alert's own metric is matched as a character: the window names that very target.
    expect(windowMatches(window, alert('a', 'servers.dc1.*.cpu'))).toBe(true);
    expect(windowMatches(window, alert('a', 'servers.dc2.x.cpu', [], ['db.b.load']))).toBe(true);
    expect(windowMatches(window, alert('a', 'servers.dc2.x.cpu', [], ['db.c.load']))).toBe(false);
  });

  it('matches a channel by id or, through channelNames, by name', () => {
    const window = { match: { channels: ['ops pager'] } };
    expect(windowMatches(window, alert('a', 'm', ['c1']), new Map([['c1', 'ops pager']]))).toBe(true);
    expect(windowMatches(window, alert('a', 'm', ['ops pager']))).toBe(true);
    expect(windowMatches(window, alert('a', 'm', ['c2']), new Map([['c1', 'ops pager']]))).toBe(false);
  });

  it('needs any pattern of every key given, and matches nothing without a key', () => {
    const window = { match: { alert_names: ['web*'], metrics: ['servers.dc1.*'] } };
    expect(windowMatches(window, alert('web', 'servers.dc1.a'))).toBe(true);
    expect(windowMatches(window, alert('web', 'servers.dc2.a'))).toBe(false);
    expect(windowMatches(window, alert('db', 'servers.dc1.a'))).toBe(false);
    expect(windowMatches({ match: {} }, alert('web', 'servers.dc1.a'))).toBe(false);
  });

  it('matches a long hostile name glob in linear time', () => {
    const pattern = `${'*a'.repeat(100)}b`;
    const started = threadCpuMs();
    expect(windowMatches({ match: { alert_names: [pattern] } }, alert('a'.repeat(5000), 'm'))).toBe(false);
    expect(threadCpuMs() - started).toBeLessThan(500);
  });
});

describe('isWindowActiveAt', () => {
  const at = (iso: string) => Date.parse(iso);

  it('a one-off window is active from starts_at for duration minutes', () => {
    const window = { starts_at: '2026-12-01T22:00:00+01:00', duration: 90 };
    expect(isWindowActiveAt(window, at('2026-12-01T20:59:59Z'))).toBe(false);
    expect(isWindowActiveAt(window, at('2026-12-01T21:00:00Z'))).toBe(true);
    expect(activeWindowEnd(window, at('2026-12-01T22:00:00Z'))).toBe(at('2026-12-01T22:30:00Z'));
    expect(isWindowActiveAt(window, at('2026-12-01T22:30:00Z'))).toBe(false);
  });

  it('a recurring window starts at start_time on its week days in its timezone, past midnight too', () => {
    // 2026-12-05 is a Saturday.
    const window = { start_time: '23:00', repeat: ['sat' as const], timezone: 'UTC+2', duration: 120 };
    expect(isWindowActiveAt(window, at('2026-12-05T21:00:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, at('2026-12-05T22:59:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, at('2026-12-05T23:00:00Z'))).toBe(false);
    expect(isWindowActiveAt(window, at('2026-12-12T21:30:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, at('2026-12-06T21:30:00Z'))).toBe(false);
  });

  it('takes an IANA zone at its offset of the day, summer and winter', () => {
    const window = { start_time: '02:00', repeat: ['sun' as const], timezone: 'Europe/Berlin', duration: 60 };
    // 2026-07-05 and 2026-12-06 are Sundays: 02:00 in Berlin is 00:00Z in summer, 01:00Z in winter.
    expect(isWindowActiveAt(window, at('2026-07-05T00:30:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, at('2026-07-05T01:30:00Z'))).toBe(false);
    expect(isWindowActiveAt(window, at('2026-12-06T01:30:00Z'))).toBe(true);
    expect(isWindowActiveAt(window, at('2026-12-06T00:30:00Z'))).toBe(false);
    expect(isWindowTimezone('Europe/Berlin')).toBe(true);
    expect(isWindowTimezone('UTC-5:30')).toBe(true);
    expect(isWindowTimezone('Mars/Olympus')).toBe(false);
  });
});
