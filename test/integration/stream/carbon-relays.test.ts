import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarbonPoint } from '../../../src/stream/carbon-point.js';
import { carbonCRelayAvailability, carbonRelayAvailability, startCarbonCRelay, startCarbonRelay, type Relay } from '../../helpers/carbon-relays.js';
import { graphiteAvailability, startGraphite, writePlaintext, type Graphite, type GraphiteSeries } from '../../helpers/graphite.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { missingNote } from '../../helpers/system.js';

// The way operators tee their stream to alertform: a relay copies every point to carbon-cache and to alertform's
// carbon port. Whatever carbon-cache stored (read back through graphite-web), alertform received: the same paths,
// times and values, no more, no fewer; and it matched exactly those its subscribers read.

const graphiteParts = graphiteAvailability();
const relayParts = carbonRelayAvailability();
const cRelayParts = carbonCRelayAvailability();

let graphite: Graphite;
let server: TestServer & { carbonAddress: (protocol: 'plaintext' | 'pickle') => string };
const matched: CarbonPoint[] = [];
const subscriber = { name: 'relay test' };

beforeAll(async () => {
  if (graphiteParts.skip) return;
  graphite = await startGraphite();
  let addresses: Record<string, { port: number }> = {};
  const started = await startTestServer({
    carbon: { plaintext: '127.0.0.1:0', pickle: '127.0.0.1:0' },
    services: [
      (context) => {
        const stream = context.stream!;
        addresses = context.carbon!.addresses as Record<string, { port: number }>;
        // Two globs and a plain path: the relay test's own metrics, not the `other.` ones.
        stream.subscribe(subscriber, ['pickled.*.cpu', 'lines.{web,db}*.cpu', 'lines.plain.cpu'], null, 3600);
        stream.onMatched((points) => matched.push(...points.map(({ point }) => point)));
        return { close: async () => undefined };
      },
    ],
  });
  server = Object.assign(started, { carbonAddress: (protocol: 'plaintext' | 'pickle') => `127.0.0.1:${addresses[protocol]!.port}` });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await graphite?.stop();
});

/** Points at 10 s steps (whisper's resolution here) over the last 10 minutes, for each path. */
function pointsFor(paths: string[]): CarbonPoint[] {
  const now = Math.floor(Date.now() / 1000);
  const last = now - (now % 10);
  return paths.flatMap((path, p) => Array.from({ length: 60 }, (_, k) => ({ path, timestamp: last - 590 + k * 10, value: p * 1000 + k * 1.25 - 7 })));
}

const key = (point: CarbonPoint) => `${point.path} ${point.timestamp} ${point.value}`;

/**
 * What graphite-web answers for a target, its non-null datapoints, once there are at least `atLeast` (uncached, and
 * a 500 while carbon is still creating a file read as "not yet": graphite.waitForSeries).
 */
async function stored(target: string, atLeast = 0): Promise<CarbonPoint[]> {
  const pointsOf = (series: GraphiteSeries[]) =>
    series.flatMap(({ target: path, datapoints }) => datapoints.filter(([value]) => value !== null).map(([value, timestamp]) => ({ path, value: value!, timestamp })));
  return pointsOf(await graphite.waitForSeries(target, (series) => pointsOf(series).length >= atLeast, { minutes: 15 }));
}

async function metric(name: string): Promise<number> {
  const text = (await server.request('GET', '/metrics', undefined, { key: null })).text;
  return text
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

async function teeThrough(relay: Relay, sent: CarbonPoint[], readBack: string, expectedMatched: CarbonPoint[]) {
  const before = matched.length;
  try {
    await writePlaintext(relay.port, sent.map(({ path, value, timestamp }) => ({ path, value, time: timestamp })));
    const wanted = new Set(expectedMatched.map(key));
    // Carbon-cache has them when graphite-web shows every one; alertform when its subscriber has heard every one.
    await until(async () => matched.length - before, (count) => count >= expectedMatched.length, 30_000);
    const inGraphite = await stored(readBack, expectedMatched.length);
    const received = matched.slice(before);
    expect(new Set(inGraphite.map(key))).toEqual(wanted);
    expect(received.map(key).sort()).toEqual(inGraphite.map(key).sort());
  } catch (error) {
    throw new Error(`${(error as Error).message}\nrelay log:\n${relay.logs()}`);
  }
}

describe.skipIf(graphiteParts.skip || relayParts.skip)(`carbon-relay teeing pickles to carbon-cache and alertform${missingNote(graphiteParts, relayParts)}`, () => {
  it('alertform receives exactly the points carbon-cache stored, over the pickle protocol', async () => {
    const relay = await startCarbonRelay([`127.0.0.1:${graphite.picklePort}`, server.carbonAddress('pickle')]);
    try {
      const ours = pointsFor(['pickled.web1.cpu', 'pickled.web2.cpu', 'pickled.db1.cpu']);
      const others = pointsFor(['other.pickled.cpu']);
      const receivedBefore = await metric('alertform_carbon_points_received_total{protocol="pickle"}');
      await teeThrough(relay, [...ours, ...others], 'pickled.*.cpu', ours);
      // The unmatched points arrived too (counted, not kept): carbon-cache has them as well.
      await until(() => metric('alertform_carbon_points_received_total{protocol="pickle"}'), (count) => count - receivedBefore === ours.length + others.length);
      expect(await stored('other.pickled.cpu', others.length)).toHaveLength(others.length);
      expect(await metric('alertform_carbon_lines_invalid_total')).toBe(0);
    } finally {
      await relay.stop();
    }
  }, 120_000);
});

describe.skipIf(graphiteParts.skip || cRelayParts.skip)(`carbon-c-relay forwarding lines to carbon-cache and alertform${missingNote(graphiteParts, cRelayParts)}`, () => {
  it('alertform receives exactly the points carbon-cache stored, over the plaintext protocol', async () => {
    const relay = await startCarbonCRelay([`127.0.0.1:${graphite.carbonPort}`, server.carbonAddress('plaintext')]);
    try {
      const ours = pointsFor(['lines.web1.cpu', 'lines.db7.cpu', 'lines.plain.cpu']);
      const others = pointsFor(['lines.cache1.cpu']);
      const matchedBefore = await metric('alertform_carbon_points_matched_total');
      await teeThrough(relay, [...ours, ...others], 'lines.{web1,db7,plain}.cpu', ours);
      expect(await stored('lines.cache1.cpu', others.length)).toHaveLength(others.length);
      expect((await metric('alertform_carbon_points_matched_total')) - matchedBefore).toBe(ours.length);
      expect(await metric('alertform_stream_series')).toBeGreaterThanOrEqual(3);
    } finally {
      await relay.stop();
    }
  }, 120_000);
});
