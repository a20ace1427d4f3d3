import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGraphiteClient } from '../../../src/graphite/render-client.js';
import { formValue, renderForm } from '../../../src/graphite/render-query.js';
import { compileGraphitePattern, isBatchableTarget } from '../../../src/model/graphite-target/glob.js';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const NOW = 1_700_000_000;

describe('graphite patterns', () => {
  it('batches plain paths and wildcards but sends function queries alone', () => {
    expect(isBatchableTarget('servers.web1.cpu')).toBe(true);
    expect(isBatchableTarget('servers.*.cpu.{user,system}')).toBe(true);
    expect(isBatchableTarget('sumSeries(servers.*.cpu)')).toBe(false);
    expect(isBatchableTarget('seriesByTag("name=cpu")')).toBe(false);
    expect(isBatchableTarget('cpu;host=web1')).toBe(false);
  });

  it('matches expanded series names back to their pattern without crossing dots', () => {
    const pattern = compileGraphitePattern('servers.web?.cpu.{user,system}');
    expect(pattern.test('servers.web1.cpu.user')).toBe(true);
    expect(pattern.test('servers.web1.cpu.idle')).toBe(false);
    expect(compileGraphitePattern('a.*.c').test('a.b.x.c')).toBe(false);
    expect(compileGraphitePattern('a.[0-9].c').test('a.7.c')).toBe(true);
  });
});

describe('the Graphite render client', () => {
  it('reads many plain and wildcard targets in one request and maps each series back to its target', async () => {
    const fake = await startFakeRender(() => ({
      series: [makeSeries('a.one', [1], NOW), makeSeries('b.x.cpu', [2], NOW), makeSeries('b.y.cpu', [3], NOW)],
    }));
    closers.push(fake.close);
    const client = createGraphiteClient({ baseUrl: fake.url });
    const results = await client.render([
      { target: 'a.one', fromMinutes: 5 },
      { target: 'b.*.cpu', fromMinutes: 5 },
      { target: 'c.none', fromMinutes: 5 },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.targets).toEqual(['a.one', 'b.*.cpu', 'c.none']);
    expect(fake.requests[0]!.from).toBe('-5min');
    expect(results.map((r) => (r.ok ? r.series.map((s) => s.target) : r.failure.kind))).toEqual([
      ['a.one'],
      ['b.x.cpu', 'b.y.cpu'],
      [],
    ]);
  });

  it('keeps each series once per target, in the order first answered, when an answer repeats names', async () => {
    // A wildcard matching 40 series (past the few the client compares one by one), each sent twice: the second
    // copy wins, in the first one's place; the same for a plain path and for a query asked twice.
    const names = Array.from({ length: 40 }, (_, i) => `web.h${i}.cpu`);
    const fake = await startFakeRender(() => ({
      series: [...names.map((name) => makeSeries(name, [1], NOW)), makeSeries('db.cpu', [1], NOW), ...names.map((name) => makeSeries(name, [2], NOW)), makeSeries('db.cpu', [2], NOW)],
    }));
    closers.push(fake.close);
    const results = await createGraphiteClient({ baseUrl: fake.url }).render([
      { target: 'web.*.cpu', fromMinutes: 5 },
      { target: 'db.cpu', fromMinutes: 5 },
      { target: 'web.*.cpu', fromMinutes: 5 },
    ]);
    expect(fake.requests).toHaveLength(1);
    for (const result of [results[0]!, results[2]!]) {
      expect(result.ok && result.series.map((one) => one.target)).toEqual(names);
      expect(result.ok && result.series.every((one) => one.datapoints[0]![0] === 2)).toBe(true);
    }
    expect(results[1]!.ok && results[1]!.series.map((one) => one.datapoints)).toEqual([[[2, NOW]]]);
  });

  it('sends each function query in a request of its own and separates time ranges', async () => {
    const fake = await startFakeRender((request) => ({ series: request.targets.map((t) => makeSeries(t, [1], NOW)) }));
    closers.push(fake.close);
    const client = createGraphiteClient({ baseUrl: fake.url });
    await client.render([
      { target: 'a', fromMinutes: 5 },
      { target: 'b', fromMinutes: 5 },
      { target: 'sumSeries(x.*)', fromMinutes: 5 },
      { target: 'c', fromMinutes: 1450 },
    ]);
    const sent = fake.requests.map((r) => `${r.from} ${r.targets.join(',')}`).sort();
    expect(sent).toEqual(['-1450min c', '-5min a,b', '-5min sumSeries(x.*)']);
  });

  it('splits a failing batch so that one invalid target fails alone', async () => {
    const fake = await startFakeRender((request) =>
      request.targets.includes('bad..target')
        ? { status: 400, body: 'Invalid target' }
        : { series: request.targets.map((t) => makeSeries(t, [7], NOW)) },
    );
    closers.push(fake.close);
    const client = createGraphiteClient({ baseUrl: fake.url, maxTargetsPerRequest: 8 });
    const targets = ['t1', 't2', 't3', 'bad..target', 't5', 't6', 't7', 't8'];
    const results = await client.render(targets.map((target) => ({ target, fromMinutes: 5 })));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false, true, true, true, true]);
    const failed = results[3]!;
    expect(!failed.ok && failed.failure).toMatchObject({ kind: 'invalid_target', status: 400 });
    expect(results[0]!.ok && results[0]!.series[0]!.datapoints).toEqual([[7, NOW]]);
  });

  it('tells an HTTP error, a timeout and an unreachable backend apart', async () => {
    const broken = await startFakeRender(() => ({ status: 503 }));
    const slow = await startFakeRender(() => ({ series: [], delayMs: 2_000 }));
    closers.push(broken.close, slow.close);
    const [http] = await createGraphiteClient({ baseUrl: broken.url }).render([{ target: 'x', fromMinutes: 1 }]);
    const [timeout] = await createGraphiteClient({ baseUrl: slow.url, timeoutMs: 100 }).render([{ target: 'x', fromMinutes: 1 }]);
    const [unreachable] = await createGraphiteClient({ baseUrl: 'http://127.0.0.1:1' }).render([{ target: 'x', fromMinutes: 1 }]);
    expect(!http!.ok && http!.failure).toMatchObject({ kind: 'http', status: 503 });
    expect(!timeout!.ok && timeout!.failure.kind).toBe('timeout');
    expect(!unreachable!.ok && unreachable!.failure.kind).toBe('unreachable');
    expect(!unreachable!.ok && unreachable!.failure.message).not.toContain('127.0.0.1');
  });

  it('counts an answer whose body stalls past the timeout as a timeout, and one cut short as unreachable', async () => {
    // Headers and the start of the body come at once; the rest never does (or the connection drops).
    const stalling = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).write('[{"target":');
    });
    const cutting = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).write('[{"target":', () => res.socket?.destroy());
    });
    for (const server of [stalling, cutting]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
    }
    const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [stalled] = await createGraphiteClient({ baseUrl: urlOf(stalling), timeoutMs: 200 }).render([{ target: 'x', fromMinutes: 1 }]);
    const [cut] = await createGraphiteClient({ baseUrl: urlOf(cutting), timeoutMs: 5_000 }).render([{ target: 'x', fromMinutes: 1 }]);
    expect(!stalled!.ok && stalled!.failure.kind).toBe('timeout');
    expect(!cut!.ok && cut!.failure.kind).toBe('unreachable');
  });

  it('splits timed-out batches only within a budget, so a backend that is slow for everything stays bounded', async () => {
    const slow = await startFakeRender(() => ({ series: [], delayMs: 5_000 }));
    closers.push(slow.close);
    // Long enough for each request to reach the server on a loaded machine; the answers never come in time.
    const client = createGraphiteClient({ baseUrl: slow.url, timeoutMs: 500, maxTargetsPerRequest: 16, timeoutSplitBudget: 2, concurrency: 16 });
    const targets = Array.from({ length: 64 }, (_, i) => ({ target: `slow.${i}`, fromMinutes: 5 }));
    const results = await client.render(targets);
    expect(results.every((r) => !r.ok && r.failure.kind === 'timeout')).toBe(true);
    // 4 batches, plus 2 halves for each of the 2 splits the budget allows.
    expect(slow.requests.length).toBe(8);
  });

  it('treats an answer that is not render JSON as an HTTP-level failure', async () => {
    const fake = await startFakeRender(() => ({ status: 200, body: '<html>login</html>' }));
    closers.push(fake.close);
    const [result] = await createGraphiteClient({ baseUrl: fake.url }).render([{ target: 'x', fromMinutes: 1 }]);
    expect(!result!.ok && result!.failure.kind).toBe('http');
  });

  it('sends credentials of the base URL as Basic auth and keeps them out of graph URLs', async () => {
    const fake = await startFakeRender(() => ({ series: [] }));
    closers.push(fake.close);
    const client = createGraphiteClient({ baseUrl: fake.url.replace('http://', 'http://user:s3cret@') });
    await client.render([{ target: 'x', fromMinutes: 1 }]);
    expect(fake.requests[0]!.authorization).toBe(`Basic ${Buffer.from('user:s3cret').toString('base64')}`);
    expect(client.graphUrl('x.*', 60)).not.toContain('s3cret');
    expect(client.graphUrl('x.*', 60)).toContain('target=x.*');
  });

  it('POSTs each request as a form body exactly as URLSearchParams would write it, escapes and all', async () => {
    const seen: { method: string; url: string; type: string; length: string; body: string }[] = [];
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      seen.push({ method: req.method!, url: req.url!, type: req.headers['content-type']!, length: req.headers['content-length']!, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const client = createGraphiteClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphite` });
    const targets = ['a.b-c_d.*', "odd name~with'(signs)!", 'x.{y,z}.[0-9]', 'caf\u00e9.%41+&=#?', 'emoji.\ud83d\ude00'];
    await client.render([...targets.map((target) => ({ target, fromMinutes: 5 })), { target: 'h.beat', fromMinutes: 1445, maxDataPoints: 48 }]);
    const expected = (batch: string[], from: string, maxDataPoints?: string) => {
      const params = new URLSearchParams();
      for (const target of batch) params.append('target', target);
      params.set('from', from);
      params.set('until', 'now');
      if (maxDataPoints) params.set('maxDataPoints', maxDataPoints);
      params.set('format', 'json');
      return params.toString();
    };
    const batched = targets.filter((target) => isBatchableTarget(target));
    const alone = targets.filter((target) => !isBatchableTarget(target)).map((target) => expected([target], '-5min'));
    expect(batched).toHaveLength(2);
    expect(seen.map((one) => one.body).sort()).toEqual([expected(batched, '-5min'), ...alone, expected(['h.beat'], '-1445min', '48')].sort());
    for (const one of seen) {
      // Nothing in the URL: the targets travel in the body, with its length (no chunked encoding).
      expect(one).toMatchObject({ method: 'POST', url: '/graphite/render', type: 'application/x-www-form-urlencoded' });
      expect(Number(one.length)).toBe(Buffer.byteLength(one.body));
    }
    for (const value of ['plain.path', 'a b', '~\'()!*', 'lone \ud800 surrogate', '']) {
      expect(formValue(value)).toBe(new URLSearchParams([['', value]]).toString().slice(1));
    }
  });

  it('keeps batches under the body size limit and the target count', async () => {
    const fake = await startFakeRender((request) => ({ series: request.targets.map((t) => makeSeries(t, [1], NOW)) }));
    closers.push(fake.close);
    const client = createGraphiteClient({ baseUrl: fake.url, maxBodyBytes: 200, maxTargetsPerRequest: 6 });
    const targets = Array.from({ length: 20 }, (_, i) => `servers.host-${i}.some.long.metric.name`);
    const results = await client.render(targets.map((target) => ({ target, fromMinutes: 5 })));
    expect(results.every((r) => r.ok && r.series.length === 1)).toBe(true);
    expect(fake.requests.length).toBeGreaterThan(Math.ceil(20 / 6));
    for (const request of fake.requests) {
      expect(request.body.length).toBeLessThanOrEqual(200);
      expect(request.targets.length).toBeLessThanOrEqual(6);
    }
    expect(fake.requests.flatMap((r) => r.targets).sort()).toEqual([...targets].sort());
  });

  it('cuts the body size limit exactly: a batch ends where the next target would cross it', async () => {
    const fake = await startFakeRender((request) => ({ series: request.targets.map((t) => makeSeries(t, [1], NOW)) }));
    closers.push(fake.close);
    const targets = Array.from({ length: 9 }, (_, i) => `m.t${i}`);
    const whole = renderForm(targets, { fromMinutes: 5 }).length;
    const client = createGraphiteClient({ baseUrl: fake.url, maxBodyBytes: whole, maxTargetsPerRequest: 100 });
    await client.render(targets.map((target) => ({ target, fromMinutes: 5 })));
    expect(fake.requests.map((request) => request.body.length)).toEqual([whole]);
    const smaller = createGraphiteClient({ baseUrl: fake.url, maxBodyBytes: whole - 1, maxTargetsPerRequest: 100 });
    await smaller.render(targets.map((target) => ({ target, fromMinutes: 5 })));
    expect(fake.requests.slice(1).map((request) => request.targets.length)).toEqual([8, 1]);
  });
});
