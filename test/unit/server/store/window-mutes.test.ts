import { describe, expect, it } from 'vitest';
import { AccountWindows, activeMutingWindow } from '../../../../src/server/store/window-mutes.js';
import type { WindowRecord } from '../../../../src/server/store/window-store.js';
import { WindowMatchCache, type WindowAnswers } from '../../../../src/server/store/window-match-cache.js';
import { windowRecord } from '../../../helpers/window-record.js';

/** A window of every day (the helper's default is Mondays only). */
const record = (id: string, accountId: string, fields: Partial<WindowRecord>): WindowRecord =>
  windowRecord(id, accountId, { repeat: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], ...fields });

describe('AccountWindows', () => {
  it('matches an alert only against the windows of its own account', () => {
    const windows = new AccountWindows([record('w1', 'a1', { match: { alert_names: ['web*'] } }), record('w2', 'a2', {})]);
    expect(windows.matching('a1', 'x1', { name: 'web-1', metric: 'm' }).map((w) => w.id)).toEqual(['w1']);
    expect(windows.matching('a1', 'x2', { name: 'db-1', metric: 'm' })).toEqual([]);
    expect(windows.matching('a3', 'x3', { name: 'web-1', metric: 'm' })).toEqual([]);
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
      matched += windows.matching('a1', `alert-${i}`, { name: `host-${i % 300}-cpu`, metric: `servers.dc${i % 7}.web${i}.cpu`, notification_channels: ['c1'] }).length;
    }
    const elapsed = process.cpuUsage(started).user / 1000;
    // host-N-cpu for N < 200 matches window N when its dc agrees (i % 7 === N % 7).
    expect(matched).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(1_500);
  });
});

/** A cache that counts the answers it is told (each one a matcher's, asked because none was kept). */
function countingCache() {
  let told = 0;
  const kept = new (class extends WindowMatchCache {
    override answersOf(accountId: string, windowId: string, version: string): WindowAnswers {
      const answers = super.answersOf(accountId, windowId, version);
      const set = answers.set.bind(answers);
      answers.set = (number, matched) => {
        told += 1;
        set(number, matched);
      };
      return answers;
    }
  })();
  return { kept, asked: () => told };
}

describe('AccountWindows with the kept answers', () => {
  const cache = () => new WindowMatchCache();

  it('asks the matcher again only for a changed alert or a changed window', () => {
    const kept = cache();
    const web = record('w1', 'a1', { match: { alert_names: ['web*'] } });
    const first = new AccountWindows([web], { cache: kept });
    expect(first.matching('a1', 'x', { name: 'web-1', metric: 'm' }).map((w) => w.id)).toEqual(['w1']);
    // The alert renamed: a new version, matched again.
    expect(first.matching('a1', 'x', { name: 'db-1', metric: 'm' })).toEqual([]);
    // The window changed: its new version is matched, not the kept answer of the old one.
    const changed = new AccountWindows([{ ...web, match: { alert_names: ['db*'] } }], { cache: kept });
    expect(changed.matching('a1', 'x', { name: 'db-1', metric: 'm' }).map((w) => w.id)).toEqual(['w1']);
    const back = new AccountWindows([web], { cache: kept });
    expect(back.matching('a1', 'x', { name: 'db-1', metric: 'm' })).toEqual([]);
  });

  it('looks kept answers up instead of matching again', async () => {
    const { kept, asked } = countingCache();
    const hostile = Array.from({ length: 20 }, (_, i) => `*${'a'.repeat(179 + i)}b`);
    const records = () => Array.from({ length: 20 }, (_, w) => record(`w${w}`, 'a1', { match: { alert_names: hostile.map((p) => `${p}${w}`) } }));
    const alerts = Array.from({ length: 500 }, (_, i) => ({ accountId: 'a1', alertId: `x${i}`, alert: { name: `${'a'.repeat(200)}bc${i}`, metric: 'm' } }));
    await new AccountWindows(records(), { cache: kept }).prepare(alerts);
    expect(asked()).toBe(500 * 20);
    // The next listing (its windows read again): every answer is kept.
    const again = new AccountWindows(records(), { cache: kept, everything: true });
    for (const { alertId, alert } of alerts) expect(again.matching('a1', alertId, alert)).toEqual([]);
    expect(asked()).toBe(500 * 20);
  });

  it('forgets the windows a listing of everything did not see', () => {
    const { kept, asked } = countingCache();
    const alert = { name: 'n', metric: 'm' };
    new AccountWindows([record('w1', 'a1', {})], { cache: kept, everything: true }).matching('a1', 'x', alert);
    new AccountWindows([record('w1', 'a1', {})], { cache: kept }).matching('a1', 'x', alert);
    expect(asked()).toBe(1);
    // A listing without the account's window: forgotten, so asked again when it is back.
    new AccountWindows([], { cache: kept, everything: true });
    new AccountWindows([record('w1', 'a1', {})], { cache: kept }).matching('a1', 'x', alert);
    expect(asked()).toBe(2);
  });
});

describe('activeMutingWindow', () => {
  it('names the active window that lasts longest, with its episode start', () => {
    const now = Date.parse('2026-12-01T00:30:00Z');
    const windows = new AccountWindows([
      record('short', 'a', { duration: 45 }),
      record('long', 'a', { duration: 90 }),
      record('later', 'a', { startTime: '12:00' }),
    ]).matching('a', 'x', { name: 'x', metric: 'm' });
    expect(activeMutingWindow(windows, now)).toEqual({
      id: 'long',
      name: 'long',
      startedAt: Date.parse('2026-12-01T00:00:00Z'),
      until: Date.parse('2026-12-01T01:30:00Z'),
    });
    expect(activeMutingWindow(windows, Date.parse('2026-12-01T02:00:00Z'))).toBeNull();
  });
});
