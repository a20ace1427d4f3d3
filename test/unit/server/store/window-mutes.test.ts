import { describe, expect, it } from 'vitest';
import { AccountWindows, activeMutingWindow } from '../../../../src/server/store/window-mutes.js';
import type { WindowRecord } from '../../../../src/server/store/window-store.js';

const record = (id: string, accountId: string, fields: Partial<WindowRecord>): WindowRecord => ({
  id,
  accountId,
  name: id,
  reason: null,
  match: { alert_names: ['*'] },
  startsAt: null,
  startTime: '00:00',
  repeat: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  timezone: 'UTC',
  duration: 60,
  createdBy: 'api',
  updatedBy: 'api',
  ...fields,
});

describe('AccountWindows', () => {
  it('matches an alert only against the windows of its own account', () => {
    const windows = new AccountWindows([record('w1', 'a1', { match: { alert_names: ['web*'] } }), record('w2', 'a2', {})]);
    expect(windows.matching('a1', { name: 'web-1', metric: 'm' }).map((w) => w.id)).toEqual(['w1']);
    expect(windows.matching('a1', { name: 'db-1', metric: 'm' })).toEqual([]);
    expect(windows.matching('a3', { name: 'web-1', metric: 'm' })).toEqual([]);
  });

  it('matches 10,000 alerts against 200 windows of glob patterns in well under a cycle', () => {
    const windows = new AccountWindows(
      Array.from({ length: 200 }, (_, i) =>
        record(`w${i}`, 'a1', { match: { alert_names: [`host-${i}-*`, `*-never-${i}`], metrics: [`servers.dc${i % 7}.*.cpu`] } }),
      ),
    );
    // CPU time, not wall time: the machine running the tests may be shared.
    const started = process.cpuUsage();
    let matched = 0;
    for (let i = 0; i < 10_000; i += 1) {
      matched += windows.matching('a1', { name: `host-${i % 300}-cpu`, metric: `servers.dc${i % 7}.web${i}.cpu`, notification_channels: ['c1'] }).length;
    }
    const elapsed = process.cpuUsage(started).user / 1000;
    // host-N-cpu for N < 200 matches window N when its dc agrees (i % 7 === N % 7).
    expect(matched).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(1_500);
  });
});

describe('activeMutingWindow', () => {
  it('names the active window that lasts longest, with its episode start', () => {
    const now = Date.parse('2026-12-01T00:30:00Z');
    const windows = new AccountWindows([
      record('short', 'a', { duration: 45 }),
      record('long', 'a', { duration: 90 }),
      record('later', 'a', { startTime: '12:00' }),
    ]).matching('a', { name: 'x', metric: 'm' });
    expect(activeMutingWindow(windows, now)).toEqual({
      id: 'long',
      name: 'long',
      startedAt: Date.parse('2026-12-01T00:00:00Z'),
      until: Date.parse('2026-12-01T01:30:00Z'),
    });
    expect(activeMutingWindow(windows, Date.parse('2026-12-01T02:00:00Z'))).toBeNull();
  });
});
