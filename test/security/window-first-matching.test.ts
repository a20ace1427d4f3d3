import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { HOSTILE_PATTERNS, hostileAlertName } from '../helpers/hostile-window-globs.js';
import { seedAlerts, seedWindows } from '../helpers/seed-store.js';
import { spawnServe } from '../helpers/server-process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { describeEachStore } from '../helpers/store-backends.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// A maintenance window's answers are kept per process, so after a restart the evaluator's first listing meets every
// (window, alert) pair unanswered. Before: it matched them all inline, sliced so that HTTP kept answering, but the
// listing, and with it every tenant's first cycle, waited for the hostile tenant's whole matrix (1,000 alerts of
// 255-character names x 200 windows of 20 patterns that contain each name's literal text: seconds of CPU here, a
// minute or more at the quotas). After: each account has a bounded share of a listing; the rest of its alerts are
// left out of the cycle and matched in the background, so only the tenant whose matching is expensive waits.

const HOSTILE = 'hostile-first-matching-tenant-key';
const VICTIM = 'victim-first-matching-tenant-key';
const ALERTS = 1_000;
const WINDOWS = 200;
/** A cycle's summary line in a served process's log (JSON at info): what it changed and what it put off. */
interface CycleSummary {
  component?: string;
  durationMs?: number;
  deferred?: number;
  changed?: { alertName: string }[];
}

/** The cycle summaries in a served process's stderr, in order. */
function cycleSummaries(stderr: string): CycleSummary[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CycleSummary)
    .filter((entry) => entry.component === 'evaluator' && entry.durationMs !== undefined);
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** The hostile tenant's alerts and windows, and one paging alert per tenant: the victim's written last. */
async function writeTenants(server: TestServer, hooks: { hostile: string; victim: string }) {
  const ok = (response: { status: number; text: string }) => expect(response.status, response.text).toBe(201);
  // The hostile rows straight into the store, checked as the API checks them: through the API each window's write
  // would match it against the 1,000 alerts and append a history entry to each (200,000 entries, most of this file's
  // CPU), a cost window-glob-cost.test.ts bounds. The restarted process meets the same rows either way.
  await seedAlerts(server.store, HOSTILE, Array.from({ length: ALERTS }, (_, i) => ({ name: hostileAlertName(i), metric: 'hostile.quiet', alert_criteria: { type: 'above', above_value: 1 } })));
  const startsAt = new Date(Date.now() - 60_000).toISOString();
  await seedWindows(server.store, HOSTILE, Array.from({ length: WINDOWS }, (_, i) => ({ name: `hostile ${i}`, match: { alert_names: HOSTILE_PATTERNS }, starts_at: startsAt, duration: 60 })));
  for (const [key, destination, name] of [[HOSTILE, hooks.hostile, 'hostile'], [VICTIM, hooks.victim, 'victim']] as const) {
    ok(await server.request('POST', '/v2/notifications/', { type: 'webhook', description: `${name} hook`, destination }, { key }));
    const alert = { name: `${name} pager`, metric: `${name}.metric`, alert_criteria: { type: 'above', above_value: 1 }, notification_channels: [`${name} hook`] };
    ok(await server.request('POST', '/v2/alerts/', alert, { key }));
  }
}

describeEachStore("maintenance windows' first matching after a restart", (backend) => {
  it("makes only the tenant whose matching is expensive wait: the other's page leaves within seconds of the start", async () => {
    // A file for SQLite: the restarted process must find what the first one wrote.
    let db: string;
    if (backend.name === 'sqlite') {
      const dir = await mkdtemp(join(tmpdir(), 'alertform-first-matching-'));
      closers.push(() => rm(dir, { recursive: true, force: true }));
      db = join(dir, 'alertform.db');
    } else db = await backend.createDb();
    const victimHook = await startWebhookReceiver();
    const hostileHook = await startWebhookReceiver();
    closers.push(victimHook.close, hostileHook.close);
    const writer = await startTestServer({ db, keys: [HOSTILE, VICTIM], allowPrivateDestinations: true });
    await writeTenants(writer, { hostile: `${hostileHook.url}/page`, victim: `${victimHook.url}/page` });
    await writer.close();

    // Both pagers breach from the first cycle of the restarted server, a process with nothing kept.
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, target.endsWith('.metric') ? [50, 50] : [0, 0], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    closers.push(render.close);
    const server = await spawnServe({
      db,
      key: HOSTILE,
      logLevel: 'info',
      extraArgs: ['--api-key', VICTIM, '--graphite-url', render.url, '--eval-interval', '1', '--allow-private-destinations'],
    });
    closers.push(server.stop);
    const victimPage = await victimHook.next(60_000).catch((error: Error) => {
      throw new Error(`${error.message}; the server said: ${server.stderr()}`);
    });
    expect((victimPage.body as { metric: string }).metric).toBe('victim.metric');
    // The cycle that paged the victim had put off the hostile tenant's alerts, unmatched: the victim did not wait for
    // the hostile matrix (seconds of CPU here), whatever the machine's load made of that cycle's own few hundred ms.
    // Matched inline, as before, that first cycle would have judged both tenants together, after the whole matrix.
    // The page can arrive before the process's log lines do (two pipes): the summary is awaited, not assumed.
    const victimCycle = await until(
      async () => cycleSummaries(server.stderr()).find((cycle) => cycle.changed?.some((change) => change.alertName === 'victim pager')),
      (cycle) => cycle !== undefined,
      10_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the server said: ${server.stderr()}`);
    });
    expect(victimCycle!.deferred, server.stderr()).toBeGreaterThan(ALERTS / 2);
    expect(hostileHook.received).toHaveLength(0);

    // The hostile tenant's alerts are judged once its matching is done: put off, never dropped.
    const hostilePage = await hostileHook.next(120_000);
    expect((hostilePage.body as { metric: string }).metric).toBe('hostile.metric');
    const health = await fetch(`${server.url}/healthz/evaluation`).then((response) => response.json() as Promise<{ last_cycle: { deferred_alerts: number } }>);
    expect(health.last_cycle.deferred_alerts).toBe(0);
    const metrics = await fetch(`${server.url}/metrics`).then((response) => response.text());
    expect(metrics).toMatch(/^alertform_evaluation_deferred_alerts 0$/m);
  }, 300_000);
});
