import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApi } from '../../../src/server/app.js';
import { ensureApiKeys } from '../../../src/server/accounts.js';
import { ServerMetrics } from '../../../src/server/metrics.js';
import type { Store } from '../../../src/server/store/store.js';
import { storeBackends } from '../../helpers/store-backends.js';
import { until } from '../../helpers/until.js';

/** One answer as it came off the wire, and whether the fast path (not Koa) gave it. */
interface Answer {
  status: number;
  /** Raw header names and values in the order sent, Date left out. */
  headers: string[];
  body: Buffer;
  fast: boolean;
}

/**
 * The server's request handling (createApi: the Koa app and the cached-read path in front of it) on a real store,
 * behind a real HTTP server that counts which of the two answered each request, with the request log captured.
 */
async function startApi(store: Store) {
  const keys = [randomBytes(24).toString('base64url'), randomBytes(24).toString('base64url')];
  await ensureApiKeys(store, keys);
  const logLines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  const metrics = new ServerMetrics(store);
  const api = createApi({ store, logger: pino({ level: 'debug' }, sink), metrics, console: false });
  const koa = api.app.callback();
  let fastAnswers = 0;
  const server: Server = createServer((req, res) => {
    if (api.cachedRead(req, res)) fastAnswers++;
    else void koa(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

  async function send(method: string, path: string, key = keys[0]!, body?: unknown): Promise<Answer> {
    const before = fastAnswers;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: auth(key) };
    if (text !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = res.rawHeaders;
          const kept: string[] = [];
          for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'date') kept.push(raw[i]!, raw[i + 1]!);
          resolve({ status: res.statusCode!, headers: kept, body: Buffer.concat(chunks), fast: fastAnswers > before });
        });
      });
      req.on('error', reject);
      req.end(text);
    });
  }

  async function createAlert(name: string, key = keys[0]!, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await send('POST', '/v2/alerts/', key, {
      name,
      metric: `test.${name}.cpu`,
      alert_criteria: { type: 'above', above_value: 90, time_period: 5 },
      notification_type: ['every', 60],
      ...extra,
    });
    expect(created.status).toBe(201);
    return (JSON.parse(created.body.toString()) as { id: string }).id;
  }

  /**
   * Reads until the fast path answers. On PostgreSQL a write's own NOTIFY comes back a few ms later and empties the
   * caches once more (as it does for the Koa path): the read after it is Koa's again, the next one cached.
   */
  const untilFast = (path: string, key = keys[0]!) => until(() => send('GET', path, key), (answer) => answer.fast, 5_000, 10);

  return {
    store,
    untilFast,
    keys,
    send,
    createAlert,
    metrics,
    /** The request log lines, each without its time (the only part that differs between two lines of one request). */
    requestLines: () => logLines.filter((line) => line.msg === 'request').map(({ time: _time, ...rest }) => rest),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const backends = storeBackends();
afterAll(async () => {
  for (const backend of backends) await backend.dispose();
});

describe.each(backends)('the cached-read fast path on $name', (backend) => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  async function start() {
    if (backend.skip) return null;
    const store = await backend.openStore();
    opened.push(store);
    const api = await startApi(store);
    opened.push(api);
    return api;
  }

  it.skipIf(backend.skip)(`answers a cached read exactly as Koa does: status, every header but Date, body, log line and histogram${backend.skip ? ` (skipped: ${backend.reason})` : ''}`, async () => {
    const api = (await start())!;
    for (const slash of ['', '/']) {
      // A fresh alert each time: its first read goes through Koa (and fills the caches), the second is cached.
      const id = await api.createAlert(`same-bytes${slash ? '-slash' : ''}`);
      const path = `/v2/alerts/${id}${slash}`;
      const linesBefore = api.requestLines().length;
      const throughKoa = await api.send('GET', path);
      const cached = await api.untilFast(path);
      expect(throughKoa.fast).toBe(false);
      expect(cached.fast).toBe(true);
      expect(cached.status).toBe(200);
      expect(cached.status).toBe(throughKoa.status);
      expect(cached.headers).toEqual(throughKoa.headers);
      expect(cached.headers.map((value, i) => (i % 2 === 0 ? value.toLowerCase() : value))).toContain('content-type');
      expect(cached.body.equals(throughKoa.body)).toBe(true);
      expect(JSON.parse(cached.body.toString())).toMatchObject({ id, muted: false, status: 'healthy' });
      const lines = api.requestLines().slice(linesBefore);
      const [koaLine, fastLine] = [lines[0], lines.at(-1)];
      expect(fastLine).toEqual({ ...koaLine, ms: fastLine!.ms });
      expect(koaLine).toMatchObject({ level: 20, msg: 'request', method: 'GET', path, status: 200 });
      expect(typeof fastLine!.ms).toBe('number');
    }
    const histogram = await api.metrics.registry.getSingleMetric('alertform_http_request_duration_seconds')!.get();
    const counts = histogram.values.filter(
      (value) => (value as { metricName?: string }).metricName === 'alertform_http_request_duration_seconds_count' && value.labels.route === '/v2/alerts/:id',
    );
    // Every read of one alert counted once under its route, whichever path answered it (at least 2 Koa, 2 cached).
    const reads = api.requestLines().filter((line) => line.method === 'GET' && /^\/v2\/alerts\/[0-9a-f]{32}\/?$/.test(String(line.path)));
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(counts).toEqual([expect.objectContaining({ labels: { method: 'GET', route: '/v2/alerts/:id', status: '200' }, value: reads.length })]);
  });

  it.skipIf(backend.skip)('shows a mute, an update and a delete to the very next read', async () => {
    const api = (await start())!;
    const id = await api.createAlert('changing');
    const read = async () => {
      const answer = await api.send('GET', `/v2/alerts/${id}`);
      return { ...answer, json: answer.status === 200 ? (JSON.parse(answer.body.toString()) as { name: string; muted: boolean }) : null };
    };
    await read();
    await api.untilFast(`/v2/alerts/${id}`);

    expect((await api.send('POST', `/v2/alerts/${id}/muted`, undefined, { duration: 60 })).status).toBe(200);
    const muted = await read();
    expect(muted.json?.muted).toBe(true);
    expect(muted.fast).toBe(false);
    expect((await read()).json?.muted).toBe(true);

    expect((await api.send('PUT', `/v2/alerts/${id}`, undefined, { name: 'changed' })).status).toBe(200);
    expect((await read()).json?.name).toBe('changed');
    const again = await api.untilFast(`/v2/alerts/${id}`);
    expect(JSON.parse(again.body.toString())).toMatchObject({ name: 'changed', muted: true });

    expect((await api.send('DELETE', `/v2/alerts/${id}`)).status).toBe(200);
    const gone = await read();
    expect(gone.status).toBe(404);
    expect(gone.fast).toBe(false);
    expect((await read()).status).toBe(404);
  });

  it.skipIf(backend.skip)('refuses a revoked key at once', async () => {
    const api = (await start())!;
    const id = await api.createAlert('revoked');
    await api.untilFast(`/v2/alerts/${id}`);
    const keyRecord = await api.store.accounts.findApiKey(api.keys[0]!);
    expect(await api.store.accounts.revokeApiKey(keyRecord!.id)).toBe(true);
    const refused = await api.send('GET', `/v2/alerts/${id}`);
    expect(refused.status).toBe(401);
    expect(refused.fast).toBe(false);
  });

  it.skipIf(backend.skip)("answers another account's id through a known header as Koa does (404), never from the cache", async () => {
    const api = (await start())!;
    const id = await api.createAlert('owned by the first account');
    await api.untilFast(`/v2/alerts/${id}`);
    const other = api.keys[1]!;
    // The second account's header becomes known (a successful read), then asks for the first account's alert.
    expect((await api.send('GET', '/v2/alerts/', other)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const answer = await api.send('GET', `/v2/alerts/${id}`, other);
      expect(answer.status).toBe(404);
      expect(answer.fast).toBe(false);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it.skipIf(backend.skip)('leaves to Koa every request it is not sure of: a query, HEAD, another case, an unknown id, a scheduled mute', async () => {
    const api = (await start())!;
    const id = await api.createAlert('plain');
    await api.untilFast(`/v2/alerts/${id}`);
    for (const [method, path, status] of [
      ['GET', `/v2/alerts/${id}?x=1`, 200],
      ['HEAD', `/v2/alerts/${id}`, 200],
      ['GET', `/V2/alerts/${id}`, 404],
      ['GET', `/v2/alerts/${id.toUpperCase()}`, 404],
      ['GET', `/v2/alerts/${'0'.repeat(32)}`, 404],
      ['GET', `/v2/alerts/${id}//`, 404],
    ] as const) {
      const answer = await api.send(method, path);
      expect({ method, path, status: answer.status, fast: answer.fast }).toEqual({ method, path, status, fast: false });
    }
    const schedule = await api.send('POST', '/v2/schedules/', undefined, {
      name: 'nightly',
      start_time: '22:00',
      duration: 120,
      timezone: 'UTC',
      repeat: ['mon'],
    });
    expect(schedule.status).toBe(201);
    const scheduleId = (JSON.parse(schedule.body.toString()) as { id: string }).id;
    const scheduled = await api.createAlert('scheduled', undefined, { scheduled_mutes: [scheduleId] });
    for (let i = 0; i < 2; i++) {
      const answer = await api.send('GET', `/v2/alerts/${scheduled}`);
      expect(answer.status).toBe(200);
      expect(answer.fast).toBe(false);
    }
  });
});
