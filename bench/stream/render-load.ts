import { carbonTee, type CarbonTee } from '../../test/helpers/carbon-tee.js';
import { freePort } from '../../test/helpers/free-port.js';
import type { Graphite } from '../../test/helpers/graphite.js';
import { printGoal, printTable } from '../lib/report.js';
import { ALERTS, api, clockAt, countingProxy, createAlerts, graphiteWebCpuSeconds, loopLag, metricValue, MINUTES, nowSeconds, resets, serve, sleep, withGraphite } from './judge-harness.js';

/**
 * Render load: BENCH_ALERTS (default 10,000) alerts on as many series, fed every 10 s, for BENCH_MINUTES (default 1)
 * of steady state after the first full cycle: render requests and graphite-web's CPU seconds per minute, polled
 * (the baseline) and on the stream (goal: no request at steady state). Also printed: the event loop's worst delay
 * in each mode (the server and the bench share it) and every request that had to be asked again.
 */
export async function runRenderLoad(): Promise<void> {
  await withGraphite(async (graphite) => {
    const load = await renderLoad(graphite);
    if (!load.poll || !load.stream) {
      process.stdout.write(`${JSON.stringify(load)}\n`);
      return;
    }
    printTable(
      `Render load, ${ALERTS} alerts at steady state (per minute, ${MINUTES} min measured)`,
      ['mode', 'render requests / min', 'graphite-web CPU s / min', 'event loop delay, worst (setup / steady)'],
      (['poll', 'stream'] as const).map((mode) => [mode === 'poll' ? 'render polling (baseline)' : 'stream', load[mode].requests.toFixed(1), load[mode].cpu.toFixed(2), `${load[mode].lagSetup} ms / ${load[mode].lagSteady} ms`]),
    );
    process.stdout.write(`requests asked again after a reset connection: ${resets.length}${resets.length > 0 ? `\n  ${resets.slice(0, 10).join('\n  ')}` : ''}\n`);
    printGoal('stream mode: 0 render requests at steady state', `${load.stream.requests} requests / min`, load.stream.requests === 0);
  });
}

async function renderLoad(graphite: Graphite): Promise<Record<'poll' | 'stream', { requests: number; cpu: number; lagSetup: number; lagSteady: number }>> {
  const out = {} as Record<'poll' | 'stream', { requests: number; cpu: number; lagSetup: number; lagSteady: number }>;
  const paths = Array.from({ length: ALERTS }, (_, i) => `load.h${i}.cpu`);
  const start = nowSeconds();
  // Three minutes of history for every series (carbon creates the files once, before either mode is measured).
  for (let k = 0; k < 18; k += 1) await graphite.writePoints(paths.map((path) => ({ path, value: 1, time: start - 180 + 10 * k })));
  while ((await graphite.findMetrics('load.*.cpu').catch(() => [])).length < ALERTS) await sleep(2000);
  // BENCH_LOAD_MODES=stream measures one mode alone (to profile it); the table needs both.
  const modes = (process.env.BENCH_LOAD_MODES ?? 'poll,stream').split(',') as ('poll' | 'stream')[];
  for (const mode of modes) {
    const proxy = await countingProxy(graphite.url);
    const carbonPort = await freePort();
    const server = await serve(proxy.url, mode === 'stream' ? carbonPort : null, 60, 30);
    const tee: CarbonTee | null = mode === 'stream' ? carbonTee(graphite, carbonPort) : null;
    let feeding = true;
    const feeder = (async () => {
      while (feeding) {
        const time = Math.floor(nowSeconds() / 10) * 10;
        const points = paths.map((path) => ({ path, value: 1, time }));
        await (tee ? tee.write(points) : graphite.writePoints(points));
        await clockAt(time + 10);
      }
    })();
    loopLag.reset();
    let lagSetup = 0;
    try {
      const channel = (await api(server, 'POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: 'http://127.0.0.1:9/pager' })).id as string;
      await createAlerts(server, 'load', ALERTS, channel);
      // Steady state: after a full cycle has judged (and, on the stream, warmed) every alert.
      const evaluated = mode === 'stream' ? 'alertform_alerts_evaluated{mode="stream"}' : null;
      await sleep(35_000);
      if (evaluated) while ((await metricValue(server, evaluated)) < ALERTS) await sleep(2000);
      await sleep(31_000);
      lagSetup = loopLag.current();
      loopLag.reset();
      const requests0 = proxy.renders();
      const cpu0 = graphiteWebCpuSeconds(graphite);
      await sleep(MINUTES * 60_000);
      out[mode] = { requests: (proxy.renders() - requests0) / MINUTES, cpu: (graphiteWebCpuSeconds(graphite) - cpu0) / MINUTES, lagSetup, lagSteady: loopLag.current() };
    } finally {
      feeding = false;
      await feeder;
      await tee?.close();
      await server.close();
      await proxy.close();
    }
  }
  return out;
}

