/**
 * `npm run bench:console`: the console's first paint with 10,000 alerts in one account.
 *
 * `alertform serve` runs as a child process on a SQLite file holding 10,000 alerts (a tenth alerting, so the
 * overview has something to sort first). Debian's Chromium (playwright-core) opens the console with the key already
 * in sessionStorage, as after sign-in, and the figure is the time from navigation start until the first page of
 * alerts is in the table (performance.now() in the page). Each of BENCH_ROUNDS (default 5) rounds is a fresh page
 * in a fresh browser context; the median is the figure, next to the overview endpoint alone (median of 20 calls).
 * Goal: first paint under 1 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/browser.js';
import { spawnServe } from '../test/helpers/server-process.js';
import { postSampleAlerts } from './lib/sample-alert.js';
import { describeMachine, formatMs, printGoal, printTable } from './lib/report.js';
import { openSqliteStore } from '../src/server/store/sqlite/sqlite-store.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GOAL_MS = 1000;

const dir = mkdtempSync(join(tmpdir(), 'alertform-bench-console-'));
const db = join(dir, 'console.db');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

process.stdout.write(`bench:console on ${await describeMachine()}\n`);
let server = await spawnServe({ db, discardStderr: true });
const chromium = await launchChromium();
try {
  const seedStarted = performance.now();
  // A hundred through the API (the real validation), the rest written to the store directly (as fast as it goes).
  const posted = await postSampleAlerts(server.url, server.authorization, { count: 100, inFlight: 4, prefix: 'console-bench-api-' });
  await server.stop();
  const store = openSqliteStore(db);
  const account = (await store.accounts.findAccountByKey(server.key))!;
  const template = (await store.alerts.getAlert(account.id, posted[0]!))!;
  const ids = [...posted];
  for (let index = posted.length; index < ALERTS; index += 1) {
    const name = `console-bench-${String(index).padStart(5, '0')}`;
    ids.push((await store.alerts.createAlert(account.id, { ...template, name, metric: `bench.${name}.cpu` })).id);
  }
  // A tenth alerting, written as the evaluator would (without a Graphite to read here).
  for (const id of ids.filter((_, index) => index % 10 === 0)) {
    await store.evaluation.saveEvaluations([{ alertId: id, status: 'alerting', currentlyTriggeredMetrics: ['bench.metric'], evalState: null, history: [], deliveries: [] }]);
  }
  await store.close();
  server = await spawnServe({ db, key: server.key, discardStderr: true });
  process.stdout.write(`seeded ${ALERTS} alerts (${ALERTS / 10} alerting) in ${formatMs(performance.now() - seedStarted)}\n`);

  const endpoint: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const started = performance.now();
    const response = await fetch(`${server.url}/v2/alerts/overview/?max=50`, { headers: { authorization: server.authorization } });
    await response.json();
    endpoint.push(performance.now() - started);
  }

  const paints: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const context = await chromium.browser.newContext();
    await context.addInitScript((key) => (globalThis as any).sessionStorage.setItem('alertform.apiKey', key), server.key);
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator('tbody tr').first().waitFor();
    const rows = await page.locator('tbody tr').count();
    if (rows !== 50) throw new Error(`expected a page of 50 rows, got ${rows}`);
    paints.push(await page.evaluate(() => (globalThis as any).performance.now() as number));
    await context.close();
  }
  printTable(
    `console with ${ALERTS} alerts`,
    ['measure', 'median', 'min', 'max'],
    [
      ['GET /v2/alerts/overview/ (page of 50)', formatMs(median(endpoint)), formatMs(Math.min(...endpoint)), formatMs(Math.max(...endpoint))],
      ['first paint (navigation to first page of rows)', formatMs(median(paints)), formatMs(Math.min(...paints)), formatMs(Math.max(...paints))],
    ],
  );
  printGoal(`first paint under ${formatMs(GOAL_MS)} with ${ALERTS} alerts`, formatMs(median(paints)), median(paints) < GOAL_MS);
} finally {
  await chromium.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
