import { startWebhookReceiver } from '../../test/helpers/webhook-receiver.js';
import { carbonTee, type CarbonTee } from '../../test/helpers/carbon-tee.js';
import { freePort } from '../../test/helpers/free-port.js';
import type { Graphite, GraphitePoint } from '../../test/helpers/graphite.js';
import { formatMs, printGoal, printTable } from '../lib/report.js';
import { api, clockAt, createAlerts, LATENCY_ALERTS, metricValue, nowSeconds, percentile, serve, sleep, withGraphite } from './judge-harness.js';

/**
 * Detection latency: BENCH_LATENCY_ALERTS (default 200) alerts, one series each, judged on the stream; every series
 * breaches in one 30 s bucket, written on time through a relay's tee (carbon and alertform); measured from the
 * write of the point that completes the breaching bucket (its +20 s point) to each alert's webhook. Baseline in
 * the same run: the same alerts polled from render with the default 60 s settle delay and a 30 s interval, from
 * the same write to their webhooks.
 */
export async function runDetectionLatency(): Promise<void> {
  await withGraphite(async (graphite) => {
    const measured = await latency(graphite);
    printTable(
      `Detection latency, ${LATENCY_ALERTS} alerts: from the write of the point completing a breaching bucket to its webhook`,
      ['mode', 'pages', 'p50', 'p99'],
      (['stream', 'poll'] as const).map((mode) => [mode === 'poll' ? 'render polling (baseline: 60 s settle, 30 s interval)' : 'stream', measured[mode].length, formatMs(percentile(measured[mode], 50)), formatMs(percentile(measured[mode], 99))]),
    );
    const p99 = percentile(measured.stream, 99);
    printGoal('stream detection p99 under 2 s', formatMs(p99), measured.stream.length === LATENCY_ALERTS && p99 < 2000);
  });
}

async function latency(graphite: Graphite): Promise<{ stream: number[]; poll: number[] }> {
  const results: { stream: number[]; poll: number[] } = { stream: [], poll: [] };
  for (const mode of ['stream', 'poll'] as const) {
    const arrivals: number[] = [];
    const hooks = await startWebhookReceiver((request) => {
      if (request.path === '/pager') arrivals.push(Date.now());
      return 200;
    });
    const carbonPort = await freePort();
    const server = await serve(graphite.url, mode === 'stream' ? carbonPort : null, 60, 30);
    const tee: CarbonTee | null = mode === 'stream' ? carbonTee(graphite, carbonPort) : null;
    const write = (points: GraphitePoint[]) => (tee ? tee.write(points) : graphite.writePoints(points));
    try {
      const prefix = `lat${mode}`;
      const paths = Array.from({ length: LATENCY_ALERTS }, (_, i) => `${prefix}.h${i}.cpu`);
      const start = Math.floor(nowSeconds() / 30) * 30;
      await write(paths.flatMap((path) => Array.from({ length: 18 }, (_, k) => ({ path, value: 1, time: start - 180 + 10 * k }))));
      const channel = (await api(server, 'POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${hooks.url}/pager` })).id as string;
      await createAlerts(server, prefix, LATENCY_ALERTS, channel);
      // Fed on time until every alert is judged (warmed, on the stream), then the breach at the next bucket.
      let time = start;
      const feedUntil = async (end: number, value: (t: number) => number) => {
        for (; time < end; time += 10) {
          await clockAt(time);
          await write(paths.map((path) => ({ path, value: value(time), time })));
        }
      };
      await feedUntil(start + 60, () => 1);
      if (mode === 'stream') {
        while ((await metricValue(server, 'alertform_alerts_evaluated{mode="stream"}')) < LATENCY_ALERTS) await feedUntil(time + 10, () => 1);
      }
      const breach = Math.ceil((nowSeconds() + 1) / 30) * 30;
      await feedUntil(breach, () => 1);
      await feedUntil(breach + 20, () => 100);
      await clockAt(breach + 20);
      const completedAt = Date.now();
      await write(paths.map((path) => ({ path, value: 100, time: breach + 20 })));
      // Keep feeding while waiting: polling needs the clock to pass the bucket's end and the settle delay.
      const deadline = Date.now() + 150_000;
      let feeding = time + 10;
      while (arrivals.length < LATENCY_ALERTS && Date.now() < deadline) {
        if (nowSeconds() >= feeding) {
          await write(paths.map((path) => ({ path, value: 100, time: feeding })));
          feeding += 10;
        }
        await sleep(100);
      }
      results[mode] = arrivals.map((at) => at - completedAt);
      if (results[mode].length < LATENCY_ALERTS) console.log(`${mode}: only ${results[mode].length} of ${LATENCY_ALERTS} pages within the wait`);
    } finally {
      await tee?.close();
      await server.close();
      await hooks.close();
    }
  }
  return results;
}

