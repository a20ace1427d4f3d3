import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphiteClient } from '../../../src/graphite/render-client.js';
import { renderForm } from '../../../src/graphite/render-query.js';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';

const availability = graphiteAvailability();
const HOSTS = 400;

/**
 * A pass-through in front of graphite-web that notes each request's method, path and body length: the answers are
 * graphite-web's own.
 */
async function startRecordingProxy(target: string) {
  const seen: { method: string; url: string; bodyBytes: number }[] = [];
  const { port } = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, bodyBytes: body.length });
      const forward = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe.skipIf(availability.skip)('render requests POSTed to the real graphite-web', () => {
  let graphite: Graphite;
  const now = Math.floor(Date.now() / 1000);
  const time = Math.floor(now / 10) * 10 - 30;

  beforeAll(async () => {
    graphite = await startGraphite({ retentions: '10s:6h' });
    await graphite.writePoints(Array.from({ length: HOSTS }, (_, i) => ({ path: `post.h${i}.load`, value: i, time })));
    // carbon creates the whisper files as it drains its cache; a file is listed before it is written whole, so
    // wait until every series reads back with its point.
    await graphite.waitForSeries('post.*.load', (series) => series.length === HOSTS && series.every((one) => one.datapoints.some(([value]) => value !== null)), {
      minutes: Math.ceil((Date.now() / 1000 - time) / 60) + 5,
    });
  }, 120_000);
  afterAll(async () => {
    await graphite?.stop();
  });

  it('answers a form body exactly as it answers the same fields in the query string', async () => {
    // An absolute range: a relative one (-5min) moves when a 10 s step passes between the two requests.
    const form = renderForm(['post.h1.load', 'post.h2*.load', 'sumSeries(post.h1.load,post.h2.load)'], { fromMinutes: 5 }).replace(
      /from=[^&]*&until=now/,
      `from=${time - 300}&until=${time + 10}`,
    );
    expect(form).toContain(`until=${time + 10}`);
    const byGet = await fetch(`${graphite.url}/render?${form}`);
    const byPost = await fetch(`${graphite.url}/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(byPost.status).toBe(200);
    const answer = await byPost.json();
    expect(answer).toEqual(await byGet.json());
    expect((answer as { target: string }[]).map((one) => one.target)).toContain('sumSeries(post.h1.load,post.h2.load)');
    expect((answer as { target: string }[]).filter((one) => /^post\.h2\d*\.load$/.test(one.target))).toHaveLength(111);
  });

  it('serves 400 plain paths, a wildcard and a function through the client in POSTs longer than any request line', async () => {
    const proxy = await startRecordingProxy(graphite.url);
    try {
      const client = createGraphiteClient({ baseUrl: proxy.url, maxTargetsPerRequest: 500 });
      const plain = Array.from({ length: HOSTS }, (_, i) => ({ target: `post.h${i}.load`, fromMinutes: 5 }));
      const results = await client.render([...plain, { target: 'post.h1?.load', fromMinutes: 5 }, { target: 'maxSeries(post.*.load)', fromMinutes: 5 }, { target: 'post.none', fromMinutes: 5 }]);
      const valueAt = (series: { datapoints: [number | null, number][] }) => series.datapoints.find(([, at]) => at === time)?.[0];
      for (let i = 0; i < HOSTS; i += 1) {
        const result = results[i]!;
        expect(result.ok && result.series.map((one) => [one.target, valueAt(one)])).toEqual([[`post.h${i}.load`, i]]);
      }
      const wildcard = results[HOSTS]!;
      expect(wildcard.ok && wildcard.series.map((one) => one.target).sort()).toEqual(Array.from({ length: 10 }, (_, k) => `post.h1${k}.load`).sort());
      const max = results[HOSTS + 1]!;
      expect(max.ok && max.series.map(valueAt)).toEqual([HOSTS - 1]);
      expect(results[HOSTS + 2]).toEqual({ ok: true, series: [] });
      // Two requests (the batch, the function alone), both POSTs to /render; the batch's body is far past the 4,094
      // bytes of gunicorn's default request line, which a GET of the same targets would have to fit.
      expect(proxy.seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /render', 'POST /render']);
      expect(Math.max(...proxy.seen.map((one) => one.bodyBytes))).toBeGreaterThan(8_192);
    } finally {
      await proxy.close();
    }
  });

  it("answers 400 past 1,000 fields (Django's limit), which the client's batches never reach", async () => {
    const targets = Array.from({ length: 1_000 }, (_, i) => `post.h${i % HOSTS}.load`);
    const post = (count: number) =>
      fetch(`${graphite.url}/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: renderForm(targets.slice(0, count), { fromMinutes: 5, maxDataPoints: 10 }),
      });
    // Four more fields: from, until, maxDataPoints, format.
    expect((await post(996)).status).toBe(200);
    expect((await post(997)).status).toBe(400);
    const proxy = await startRecordingProxy(graphite.url);
    try {
      // A minute per request: on a loaded machine graphite-web can take longer than the default limit, and a request
      // timed out is split and asked again, which is not what this counts.
      const client = createGraphiteClient({ baseUrl: proxy.url, maxTargetsPerRequest: 5_000, timeoutMs: 60_000 });
      const many = Array.from({ length: 1_200 }, (_, i) => ({ target: `post.h${i}.none`, fromMinutes: 5, maxDataPoints: 10 }));
      const results = await client.render(many);
      expect(results.every((result) => result.ok && result.series.length === 0)).toBe(true);
      // 995 targets and then 205: no request refused and split.
      expect(proxy.seen).toHaveLength(2);
    } finally {
      await proxy.close();
    }
    // graphite-web (one Python process) reads 996 targets' whisper files for the first request and 1,200 for the
    // client's: ten seconds of its CPU on a quiet machine, three times that on a busy one.
  }, 120_000);
});
