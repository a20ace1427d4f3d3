import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readRenderFields } from '../../graphite/render-fields.js';

/** The example alert the demo's Graphite makes alert: web-2's disk has been over its 90% threshold for 40 minutes. */
export const DEMO_ALERTING_METRIC = 'shop.hosts.*.disk.root.percent_used';
const HOSTS = ['web-1', 'web-2'];
const STEP_SECONDS = 60;

/**
 * A stand-in for graphite-web's render API on 127.0.0.1 (port 0), so that `alertform demo` evaluates something
 * real without a Graphite: the disks of two hosts, where web-2 has been filling up (above 90% for the last 40
 * minutes) and web-1 is fine. Every other metric of the example definitions has steady healthy values, so the demo's
 * console shows one alert alerting and the rest healthy (a target it does not know has no series: no data). It also
 * answers the VictorOps notifications of the demo (any other path, 200), so the demo's notifications leave no machine.
 */
export async function startDemoGraphite(): Promise<DemoGraphite> {
  /** The payment gateway's breach the demo relay streams, [from, until) unix seconds: answered here too. */
  let breach: [number, number] | null = null;
  const server: Server = createServer((req, res) => {
    if (!new URL(req.url ?? '/', 'http://demo').pathname.endsWith('/render')) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"success"}');
      return;
    }
    // The render client POSTs its targets as a form body; graphite-web reads them there as in the query string.
    readRenderFields(req).then(
      ({ fields }) => {
        const minutes = Number(/^-(\d+)min$/.exec(fields.get('from') ?? '')?.[1] ?? 60);
        const series = fields.getAll('target').flatMap((target) => seriesOf(target, minutes, breach));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(series));
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setBreach: (from, until) => {
      breach = [from, until];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The demo's Graphite: its URL, and the breach the relay streams, so that render answers the points streamed. */
export interface DemoGraphite {
  url: string;
  /** From `from` to before `until` (unix seconds) the payment gateway's timeouts read 12, as the relay sends them. */
  setBreach(from: number, until: number): void;
  close(): Promise<void>;
}

/** What the payment gateway's timeouts read during the demo's breach. */
const BREACH_VALUE = 12;
/** How long the breach lasts, seconds. */
const BREACH_SECONDS = 120;

/**
 * Healthy values of the example definitions' other metrics (examples/*.yaml), each well inside its alert's
 * thresholds. A `shop.hosts.*` target gives one series per host; a function target (Graphite would compute it)
 * gives one series named as the target.
 */
const HEALTHY: Record<string, number> = {
  'shop.hosts.*.heartbeat': 1,
  'shop.hosts.*.memory.available_mb': 2048,
  'shop.hosts.*.memory.swap_used_percent': 3,
  'shop.search.index.last_build_age': 420,
  'sumSeries(shop.api.*.http.status.5xx)': 3,
  'shop.api.latency.p99': 240,
  'shop.api.requests.rate': 850,
  'shop.checkout.errors.rate': 0.4,
  'shop.checkout.latency.p95': 420,
  'shop.checkout.requests.rate': 60,
  'asPercent(shop.checkout.completed.count, shop.checkout.started.count)': 82,
  'shop.payments.gateway.timeouts': 0,
  'shop.queue.orders.depth': 1200,
  'divideSeries(shop.cache.hits, sumSeries(shop.cache.hits, shop.cache.misses))': 0.93,
};

/**
 * The raw series the function targets above read, by the path expression a target names them with: what the
 * server renders once to warm a stream-judged alert, and what the demo relay streams (their functions give the
 * healthy values above).
 */
const RAW: Record<string, [string, number][]> = {
  'shop.api.*.http.status.5xx': [
    ['shop.api.web-1.http.status.5xx', 1.5],
    ['shop.api.web-2.http.status.5xx', 1.5],
  ],
  'shop.checkout.completed.count': [['shop.checkout.completed.count', 82]],
  'shop.checkout.started.count': [['shop.checkout.started.count', 100]],
  'shop.cache.hits': [['shop.cache.hits', 93]],
  'shop.cache.misses': [['shop.cache.misses', 7]],
};

/** The series of a target: the disks, the healthy example metrics (the breach streamed), else none. */
function seriesOf(target: string, minutes: number, breach: [number, number] | null) {
  if (target === DEMO_ALERTING_METRIC) return diskSeries(minutes);
  if (target === DEMO_STREAM_METRIC && breach) {
    // Graphite holds what the relay sent it: a render (a warm-up, the console's graph) agrees with the stream.
    const series = steady(target, minutes, HEALTHY[target]!);
    for (const point of series.datapoints) if (point[1]! >= breach[0] && point[1]! < breach[1]) point[0] = BREACH_VALUE;
    return [series];
  }
  const raw = RAW[target];
  if (raw) return raw.map(([path, value]) => steady(path, minutes, value));
  const value = HEALTHY[target];
  if (value === undefined) return [];
  if (!target.startsWith('shop.hosts.*.')) return [steady(target, minutes, value)];
  return HOSTS.map((host) => steady(target.replace('*', host), minutes, value));
}

function steady(target: string, minutes: number, value: number) {
  const now = Math.floor(Date.now() / 1000 / STEP_SECONDS) * STEP_SECONDS;
  const count = Math.min(minutes, 7 * 1440);
  return { target, datapoints: Array.from({ length: count }, (_, i) => [value, now - (count - 1 - i) * STEP_SECONDS]) };
}

/** Per-minute points of both hosts over the last `minutes` (at most 7 days), by the clock: the same at every read. */
function diskSeries(minutes: number) {
  const now = Math.floor(Date.now() / 1000 / STEP_SECONDS) * STEP_SECONDS;
  const count = Math.min(minutes, 7 * 1440);
  return HOSTS.map((host, index) => ({
    target: `shop.hosts.${host}.disk.root.percent_used`,
    datapoints: Array.from({ length: count }, (_, i) => {
      const time = now - (count - 1 - i) * STEP_SECONDS;
      const wave = 4 * Math.sin(time / 3600) + 2 * Math.sin(time / 617);
      const ageMinutes = (now - time) / 60;
      // web-2 climbs over the last three hours and stays above 90% for the last 40 minutes.
      const value = index === 0 ? 62 + wave : ageMinutes <= 40 ? 93 + wave / 3 : Math.max(55, 90 - (ageMinutes - 40) / 6) + wave / 2;
      return [Math.round(value * 10) / 10, time];
    }),
  }));
}

/** The example metric the demo relay makes breach a minute after it starts: shop-payments-timeouts (above 5). */
export const DEMO_STREAM_METRIC = 'shop.payments.gateway.timeouts';

/**
 * The demo's relay: at the start of every 10 s slot, the example metrics' current values (the same the demo Graphite
 * answers) as Graphite plaintext lines to the server's carbon listener, so the stream-evaluable alerts are judged on
 * the stream.
 * From the first 30 s bucket a minute after it starts, for two minutes, the payment gateway's timeouts read 12: its
 * alert pages within seconds of the point that completes that bucket.
 */
export function startDemoRelay(port: number, graphite: Pick<DemoGraphite, 'setBreach'>, onBreach: (at: number) => void): { close(): void } {
  const started = Math.floor(Date.now() / 1000);
  const breachFrom = Math.ceil((started + 60) / 30) * 30;
  graphite.setBreach(breachFrom, breachFrom + BREACH_SECONDS);
  let socket: Socket | null = null;
  let told = false;
  const lines = (time: number): string => {
    const out: string[] = [];
    for (const [target, value] of Object.entries(HEALTHY)) {
      if (!/^[\w.*-]+$/.test(target)) continue;
      const breaching = target === DEMO_STREAM_METRIC && time >= breachFrom && time < breachFrom + BREACH_SECONDS;
      for (const path of target.startsWith('shop.hosts.*.') ? HOSTS.map((host) => target.replace('*', host)) : [target]) out.push(`${path} ${breaching ? BREACH_VALUE : value} ${time}\n`);
    }
    for (const raw of Object.values(RAW)) for (const [path, value] of raw) out.push(`${path} ${value} ${time}\n`);
    for (const series of diskSeries(1)) out.push(`${series.target} ${series.datapoints[series.datapoints.length - 1]![0]} ${time}\n`);
    return out.join('');
  };
  /** The last 10 s slot sent. */
  let sent = Math.floor(Date.now() / 10_000) * 10 - 10;
  const send = () => {
    const current = Math.floor(Date.now() / 10_000) * 10;
    if (current <= sent) return;
    if (!told && current >= breachFrom) {
      told = true;
      onBreach(current);
    }
    if (!socket || socket.destroyed) {
      socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => socket?.destroy());
    }
    // Every slot once, as a relay sends: within a second of its start, and a slot a stalled timer passed over is
    // sent late rather than left out.
    for (let time = sent + 10; time <= current; time += 10) socket.write(lines(time));
    sent = current;
  };
  send();
  const timer = setInterval(send, 1_000);
  return {
    close() {
      clearInterval(timer);
      socket?.destroy();
    },
  };
}
