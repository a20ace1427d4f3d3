import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertformClient } from '../../../src/client/api.js';
import { ApiResponseError, ConnectionError } from '../../../src/client/errors.js';
import { hintFor } from '../../../src/cli/error-hints.js';
import { parseServerUrl, redactUrl } from '../../../src/client/connection.js';

type Handler = (req: IncomingMessage & { body: string }, res: ServerResponse) => void;

/** A tiny local HTTP server that imitates the failures a real network has; each test scripts its answers. */
async function startScripted(handler: Handler): Promise<{ url: string; server: Server; requests: { method: string; url: string; auth?: string }[] }> {
  const requests: { method: string; url: string; auth?: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
      handler(Object.assign(req, { body }), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

function clientFor(url: string, delays: number[] = []): AlertformClient {
  return new AlertformClient({ server: url, retry: { retries: 3, sleep: async (ms) => void delays.push(ms) } });
}

describe('AlertformClient', () => {
  it('turns a key in the URL into a Basic header and never sends credentials in the URL', async () => {
    const s = await startScripted((_req, res) => json(res, 200, { alerts: [], next_page: false }));
    await clientFor(s.url.replace('http://', 'http://sekret-key@')).listAlerts();
    expect(s.requests[0]!.auth).toBe(`Basic ${Buffer.from('sekret-key:').toString('base64')}`);
    expect(s.requests[0]!.url).toBe('/v2/alerts/?page=1&max=100');
    expect(parseServerUrl('https://k@api.example.com/').baseUrl).toBe('https://api.example.com');
    expect(redactUrl('see https://k3y@host/v2')).toBe('see https://(sensitive)@host/v2');
  });

  it('follows next_page given as a boolean', async () => {
    const s = await startScripted((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      json(res, 200, { alerts: [{ id: `a${page}`, name: `n${page}` }], next_page: page < 3 });
    });
    expect((await clientFor(s.url).listAlerts()).map((a) => a.id)).toEqual(['a1', 'a2', 'a3']);
  });

  it('follows next_page given as a page number', async () => {
    const s = await startScripted((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      json(res, 200, { notifications: [{ id: `c${page}` }], next_page: page === 1 ? 2 : null });
    });
    expect((await clientFor(s.url).listChannels()).map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('retries a GET after 503 and 429, honouring Retry-After', async () => {
    let n = 0;
    const s = await startScripted((_req, res) => {
      n += 1;
      if (n === 1) json(res, 503, { error: { code: 'internal', message: 'busy' } });
      else if (n === 2) json(res, 429, {}, { 'retry-after': '2' });
      else json(res, 200, { alerts: [], next_page: false });
    });
    const delays: number[] = [];
    await clientFor(s.url, delays).listAlerts();
    expect(delays).toEqual([250, 2000]);
  });

  it('retries a GET whose connection was reset', async () => {
    let n = 0;
    const s = await startScripted((req, res) => {
      n += 1;
      if (n === 1) req.socket.destroy();
      else json(res, 200, { alerts: [{ id: 'x' }], next_page: false });
    });
    expect(await clientFor(s.url).listAlerts()).toHaveLength(1);
    expect(n).toBe(2);
  });

  it('does not repeat a create that landed although its answer was lost', async () => {
    const stored: string[] = [];
    const s = await startScripted((req, res) => {
      if (req.method === 'POST') {
        stored.push(JSON.parse(req.body).name);
        req.socket.destroy();
        return;
      }
      const name = new URL(req.url!, 'http://x').searchParams.get('name');
      json(res, 200, { alerts: stored.filter((n) => n === name).map((n) => ({ id: 'id-1', name: n })), next_page: false });
    });
    const id = await clientFor(s.url).createAlert({ name: 'cpu', metric: 'm', alert_criteria: { type: 'above', above_value: 1 } });
    expect(id).toBe('id-1');
    expect(stored).toEqual(['cpu']);
  });

  it('repeats a create that a 503 turned away, after checking by name that it did not land', async () => {
    let posts = 0;
    const s = await startScripted((req, res) => {
      if (req.method === 'POST') {
        posts += 1;
        if (posts === 1) json(res, 503, {});
        else json(res, 201, { id: 'new', url: '/v2/alerts/new' });
        return;
      }
      json(res, 200, { alerts: [], next_page: false });
    });
    expect(await clientFor(s.url).createAlert({ name: 'cpu', metric: 'm', alert_criteria: { type: 'above', above_value: 1 } })).toBe('new');
    expect(s.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('never retries a create turned down with a 4xx, and its error carries status and body', async () => {
    const s = await startScripted((_req, res) => json(res, 400, { error: { code: 'invalid_body', message: 'bad', details: [{ path: 'metric', message: 'is required' }] } }));
    const error = await clientFor(s.url).createChannel({ type: 'email', description: 'd', destination: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect(error).toMatchObject({ status: 400, body: { error: { code: 'invalid_body' } } });
    expect((error as Error).message).toContain('metric: is required');
    expect(s.requests).toHaveLength(1);
  });

  it('counts a delete of something already gone as done, whether the answer is 400 or 404', async () => {
    const s = await startScripted((req, res) => {
      if (req.url!.startsWith('/v2/alerts/')) json(res, 400, { error: { code: 'not_found', message: 'no such alert' } });
      else json(res, 404, { error: { code: 'not_found', message: 'no such channel' } });
    });
    const client = clientFor(s.url);
    await expect(client.deleteAlert('gone')).resolves.toBeUndefined();
    await expect(client.deleteChannel('gone')).resolves.toBeUndefined();
  });

  it('gives up after the retries and says what failed', async () => {
    const s = await startScripted((_req, res) => json(res, 502, { error: { code: 'internal', message: 'bad gateway' } }));
    await expect(clientFor(s.url).listAlerts()).rejects.toMatchObject({ status: 502 });
    expect(s.requests).toHaveLength(4);
  });

  it('never retries a port that fetch refuses outright, and says to serve on another', async () => {
    const delays: number[] = [];
    // Port 9 (discard) is on the fetch standard's blocked list: fetch fails before connecting, every time.
    const error = await clientFor('http://127.0.0.1:9', delays).listAlerts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).blockedPort).toBe(true);
    expect(delays).toEqual([]);
    expect(hintFor(error)).toMatch(/^http:\/\/127\.0\.0\.1:9 uses a port that fetch never connects to .*alertform serve --port 8080\)$/);
  });

  it('reports a server without /v2/schedules/ as having no schedules endpoint', async () => {
    const s = await startScripted((_req, res) => json(res, 404, { message: 'Not Found' }));
    expect(await clientFor(s.url).listSchedules()).toBeUndefined();
  });

  it('reads schedules under the public docs\' key, following a numeric next_page, and under the older key', async () => {
    const item = (id: string) => ({ id, name: id, start_time: '00:00', duration: 5, timezone: 'UTC', repeat: [], alerts: [] });
    const s = await startScripted((req, res) => {
      const page = new URL(req.url!, 'http://x').searchParams.get('page');
      json(res, 200, page === '1' ? { scheduled_mutes: [item('a')], next_page: 2 } : { scheduled_mutes: [item('b')], next_page: false });
    });
    expect((await clientFor(s.url).listSchedules())!.map((x) => x.id)).toEqual(['a', 'b']);
    const old = await startScripted((_req, res) => json(res, 200, { schedules: [item('c')], next_page: false }));
    expect((await clientFor(old.url).listSchedules())!.map((x) => x.id)).toEqual(['c']);
  });
});
