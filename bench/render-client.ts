/**
 * `npm run bench:render-client`: the Graphite render client alone, CPU per alert. renderEach of the 12,000 queries
 * of bench:evaluate's 10,000 alerts (80 % threshold, 10 % missing with its 24 h query, 10 % composite) against its
 * render endpoint (a child process), ROUNDS times (default 10), judging nothing; prints each round's CPU (user and
 * system) per alert. No baseline of its own: compare two checkouts run one after the other (the floor that
 * bench:evaluate prints is this same work inside a replica). Two full collections before each round, as a replica
 * of bench:evaluate has between two cycles (and V8's memory reducer gives an idle server between two cycles):
 * without them a round measured only code optimized in the rounds before, which a server does not keep.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createGraphiteClient } from '../src/graphite/render-client.js';
import type { RenderQuery } from '../src/graphite/types.js';
import { describeMachine } from './lib/report.js';

const ALERTS = 10_000;
const child = fork(fileURLToPath(new URL('./evaluate.ts', import.meta.url)), ['--render-server'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
try {
  console.log(await describeMachine());
  const url = await new Promise<string>((resolve) => child.on('message', (message: { url?: string }) => message.url && resolve(message.url)));
  const client = createGraphiteClient({ baseUrl: url, concurrency: 8 });
  const queries: RenderQuery[] = [];
  for (let i = 0; i < ALERTS; i += 1) {
    queries.push({ target: `bench.h${i}.${i % 10 === 8 ? 'beat' : 'cpu'}`, fromMinutes: i % 10 === 8 ? 6 : 3 });
    if (i % 10 === 8) queries.push({ target: `bench.h${i}.beat`, fromMinutes: 1445, maxDataPoints: 48 });
    if (i % 10 === 9) queries.push({ target: `bench.h${i}.mem`, fromMinutes: 3 });
  }
  const rounds = Number(process.env.ROUNDS ?? 10);
  const perAlert: number[] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let round = 1; round <= rounds; round += 1) {
    gc?.();
    gc?.();
    const started = process.cpuUsage();
    let results = 0;
    await client.renderEach(queries, () => (results += 1));
    const { user, system } = process.cpuUsage(started);
    perAlert.push((user + system) / ALERTS);
    console.log(`round ${round}: ${results} results, CPU per alert ${((user + system) / ALERTS).toFixed(1)} us (user ${(user / ALERTS).toFixed(1)}, system ${(system / ALERTS).toFixed(1)})`);
  }
  const steady = perAlert.slice(2).sort((x, y) => x - y);
  console.log(`render client CPU per alert, median of rounds 3..${rounds}: ${steady[Math.floor(steady.length / 2)]!.toFixed(1)} us`);
} finally {
  child.kill();
}
