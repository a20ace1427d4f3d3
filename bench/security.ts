/**
 * `npm run bench:security`: the hostile inputs of issue 12 against the current code, in one process with the
 * server (so its event-loop lag is this process's): how long each takes, how long it holds the event loop, how big
 * the answer is, and how that compares with one ordinary request (a valid alert create) of the same run.
 *
 * Before the fixes (same machine, loaded): 40,000 bad ids 6.8 s and a 1.9 MB answer; a 6-star glob against a
 * 50-letter name 5.6 s per test; a 6-level alias bomb 1.5 s and 128 MB (9 levels ran out of memory); 20,000 bad
 * alerts in a file 55 s. The goal: every case within 250 ms of event-loop time, answers under 64 KiB.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadDefinitions } from '../src/definitions/load.js';
import { compileGraphitePattern } from '../src/model/graphite-target/glob.js';
import { startTestServer } from '../test/helpers/server.js';
import { describeMachine, formatMs, printGoal, printTable, timesOf } from './lib/report.js';

interface Figure {
  ms: number;
  lagMs: number;
  bytes: number | null;
  heapMb: number;
}

async function measure(work: () => Promise<number | null> | number | null): Promise<Figure> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed;
  histogram.enable();
  const started = performance.now();
  const bytes = await work();
  const ms = performance.now() - started;
  histogram.disable();
  // A synchronous case (no answer bytes: a CLI or matcher call) holds the loop for all of its time.
  const lagMs = bytes === null ? ms : histogram.max / 1e6;
  return { ms, lagMs, bytes, heapMb: (process.memoryUsage().heapUsed - heap) / 1e6 };
}

process.stdout.write(`bench:security on ${await describeMachine()}\n`);
const server = await startTestServer();
try {
  const alert = (name: string) => ({ name, metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } });
  const post = async (path: string, body: unknown) => (await server.request('POST', path, body)).text.length;
  await post('/v2/alerts/', alert('warm-up'));
  const baseline = await measure(() => post('/v2/alerts/', alert('baseline')));

  const bomb = ['a: &a [l,l,l,l,l,l,l,l,l]', ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n');
  const badAlerts = ['alerts:', ...Array.from({ length: 5_000 }, (_, i) => `  - {name: a${i}, metric: m, alert_criteria: {type: above, above_value: x}}`)].join('\n');
  const hostile = compileGraphitePattern(`${'*a'.repeat(6)}*b`);
  const worst = compileGraphitePattern(`${'*a'.repeat(2_000)}*b`);
  const cases: Array<[string, () => Promise<number | null> | number | null]> = [
    ['bulk mute, 15,000 invalid ids', () => post('/v2/alerts/muted/', { duration: 5, ids: Array.from({ length: 15_000 }, (_, i) => i) })],
    ['bulk mute, 40,000 invalid ids', () => post('/v2/alerts/muted/', { duration: 5, ids: Array.from({ length: 40_000 }, (_, i) => i) })],
    ['alert, 15,000 invalid channels', () => post('/v2/alerts/', { ...alert('x'), notification_channels: Array.from({ length: 15_000 }, (_, i) => i) })],
    ['1 MiB body of bad items', () => post('/v2/alerts/muted/', JSON.stringify({ duration: 5, ids: Array.from({ length: 250_000 }, () => 1) }))],
    ['glob *a*a*a*a*a*a*b vs 50 letters', () => (hostile.test('a'.repeat(50)), null)],
    ['glob of 4,096 chars vs 1,000 letters', () => (worst.test('a'.repeat(1_000)), null)],
    ['YAML alias bomb (9 levels, 330 bytes)', () => (loadDefinitions([{ path: 'bomb.yaml', text: bomb }], { env: {} }), null)],
    ['validate 5,000 bad alerts (CLI)', () => (loadDefinitions([{ path: 'bad.yaml', text: badAlerts }], { env: {} }), null)],
  ];
  const rows: Array<Array<string | number>> = [['valid alert create (baseline)', formatMs(baseline.ms), formatMs(baseline.lagMs), String(baseline.bytes), baseline.heapMb.toFixed(1), '1.0x']];
  let worstServerLag = 0;
  let largest = 0;
  for (const [name, work] of cases) {
    const figure = await measure(work);
    rows.push([name, formatMs(figure.ms), formatMs(figure.lagMs), figure.bytes === null ? '-' : String(figure.bytes), figure.heapMb.toFixed(1), timesOf(figure.ms, baseline.ms)]);
    if (figure.bytes !== null) {
      worstServerLag = Math.max(worstServerLag, figure.lagMs);
      largest = Math.max(largest, figure.bytes);
    }
  }
  printTable('hostile inputs', ['case', 'time', 'max event-loop lag', 'answer bytes', 'heap MB', 'time vs baseline'], rows);
  printGoal('every server case holds the event loop <= 250 ms', formatMs(worstServerLag), worstServerLag <= 250);
  printGoal('every error answer < 64 KiB', `${largest} bytes`, largest < 64 * 1024);
} finally {
  await server.close();
}
