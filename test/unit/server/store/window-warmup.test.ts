import { describe, expect, it } from 'vitest';
import { AccountWindows, type WindowAlertOf } from '../../../../src/server/store/window-mutes.js';
import { WindowMatchCache } from '../../../../src/server/store/window-match-cache.js';
import { ListingMatching, WindowWarmup } from '../../../../src/server/store/window-warmup.js';
import type { WindowRecord } from '../../../../src/server/store/window-store.js';
import { windowRecord } from '../../../helpers/window-record.js';

const record = (id: string, accountId: string, alertNames: string[]): WindowRecord => windowRecord(id, accountId, { match: { alert_names: alertNames } });

const alerts = (accountId: string, count: number): WindowAlertOf[] =>
  Array.from({ length: count }, (_, i) => ({ accountId, alertId: `${accountId}-${i}`, alert: { name: `web-${i}`, metric: 'm' } }));

describe("a listing's share of window matching per account", () => {
  it("puts off an account's unanswered alerts once it used its share, not the other accounts' ones", async () => {
    const cache = new WindowMatchCache();
    const windows = new AccountWindows([record('w1', 'greedy', ['web-*']), record('w2', 'other', ['web-1*'])], { cache });
    const warmup = new WindowWarmup();
    // A share of 0 ms: the greedy account's first alert uses it, every later one of that account waits.
    const listing = new ListingMatching(warmup, 0);
    const listed = [...alerts('greedy', 50), ...alerts('other', 20)];
    await windows.prepare(listed, listing);
    expect(listing.deferred.size).toBe(49 + 19);
    expect(listing.deferred.has('greedy-0')).toBe(false);
    expect(listing.deferred.has('other-0')).toBe(false);
    // Nothing was matched for the ones put off: the cache has no answer yet.
    expect(windows.answered('greedy', 'greedy-1', listed[1]!.alert)).toBe(false);

    listing.finish(windows);
    expect(warmup.waiting).toBe(68);
    await warmup.idle();
    expect(warmup.waiting).toBe(0);
    for (const one of listed) expect(windows.answered(one.accountId, one.alertId, one.alert)).toBe(true);

    // The next listing finds every answer kept: nothing is put off, whatever its share.
    const next = new ListingMatching(warmup, 0);
    await new AccountWindows([record('w1', 'greedy', ['web-*']), record('w2', 'other', ['web-1*'])], { cache }).prepare(listed, next);
    expect(next.deferred.size).toBe(0);
    expect(windows.matching('greedy', 'greedy-7', listed[7]!.alert).map((w) => w.id)).toEqual(['w1']);
    expect(windows.matching('other', 'other-7', listed[57]!.alert)).toEqual([]);
    expect(windows.matching('other', 'other-12', listed[62]!.alert).map((w) => w.id)).toEqual(['w2']);
  });

  it('matches every alert inline within a share that covers them (a benign account is never put off)', async () => {
    const windows = new AccountWindows([record('w1', 'a', ['web-*'])], { cache: new WindowMatchCache() });
    const listing = new ListingMatching(new WindowWarmup(), 60_000);
    await windows.prepare(alerts('a', 1_000), listing);
    expect(listing.deferred.size).toBe(0);
  });

  it('takes accounts in turns in the background, and a later listing replaces what an account had queued', async () => {
    const cache = new WindowMatchCache();
    const windows = new AccountWindows([record('w1', 'a', ['web-*']), record('w2', 'b', ['web-*'])], { cache });
    const warmup = new WindowWarmup();
    warmup.enqueue('a', windows, alerts('a', 10));
    warmup.enqueue('b', windows, alerts('b', 5));
    warmup.enqueue('a', windows, alerts('a', 3));
    expect(warmup.waiting).toBe(8);
    await warmup.idle();
    expect(windows.answered('a', 'a-2', { name: 'web-2', metric: 'm' })).toBe(true);
    expect(windows.answered('b', 'b-4', { name: 'web-4', metric: 'm' })).toBe(true);
    // Replaced before its turn: a-9 was never matched.
    expect(windows.answered('a', 'a-9', { name: 'web-9', metric: 'm' })).toBe(false);
  });
});
