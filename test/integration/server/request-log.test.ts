import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../../helpers/server-process.js';

const dir = mkdtempSync(join(tmpdir(), 'af-request-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sends `count` requests, `inFlight` at a time, and returns their statuses. */
async function burst(server: ServeProcess, count: number, inFlight: number, request: (n: number) => Promise<Response>) {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += inFlight) {
    const answers = await Promise.all(Array.from({ length: Math.min(inFlight, count - start) }, (_, i) => request(start + i)));
    for (const answer of answers) {
      statuses.push(answer.status);
      await answer.arrayBuffer();
    }
  }
  return statuses;
}

describe('the request log of alertform serve (written asynchronously)', () => {
  it('has every request line before "server stopped" once the server stops, and no key in it', async () => {
    const server = await spawnServe({ db: join(dir, 'log.db'), logLevel: 'debug' });
    const wrongKey = `Basic ${Buffer.from('not-the-key-0123456789abcdef:').toString('base64')}`;
    const statuses = await burst(server, 120, 30, (n) =>
      fetch(`${server.url}/v2/alerts/?page=${n + 1}`, { headers: { authorization: n === 119 ? wrongKey : server.authorization } }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(119);
    expect(statuses.at(-1)).toBe(401);
    expect(await server.stop()).toBe(0);
    // (The helper keeps the last 20,000 characters of stderr: 120 request lines fit.)
    const lines = server
      .stderr()
      .trim()
      .split('\n')
      // (serve warns on stderr, in plain text, that a key given with --api-key is visible in ps)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; path?: string; status?: number });
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(120);
    expect(requests.filter((line) => line.status === 401)).toHaveLength(1);
    expect(lines.at(-1)?.msg).toBe('server stopped');
    expect(server.stderr()).not.toContain(server.key);
    expect(server.stderr()).not.toContain(server.authorization.slice('Basic '.length));
  });

  it('routes /v2 as before: the open /v2 endpoints need no key (in any case), everything else under /v2 does', async () => {
    const server = await spawnServe({ db: join(dir, 'routes.db') });
    try {
      const call = (method: string, path: string, key = false) =>
        fetch(`${server.url}${path}`, { method, headers: key ? { authorization: server.authorization } : {} });
      expect((await call('GET', '/v2/openapi.json')).status).toBe(200);
      expect((await call('GET', '/v2/OpenAPI.json')).status).toBe(200);
      expect((await call('GET', '/v2/openapi.json/')).status).toBe(200);
      // An open path with a method it does not answer falls through to the key check, then to 404.
      expect((await call('DELETE', '/v2/openapi.json')).status).toBe(401);
      expect((await call('DELETE', '/v2/openapi.json', true)).status).toBe(404);
      expect((await call('GET', '/v2/ack-links/forged')).status).not.toBe(401);
      expect((await call('GET', '/v2/graphs/forged.png')).status).not.toBe(401);
      expect((await call('GET', '/v2/alerts/')).status).toBe(401);
      expect((await call('GET', '/v2')).status).toBe(401);
      expect((await call('GET', '/v2/no-such-thing')).status).toBe(401);
      expect((await call('GET', '/v2/no-such-thing', true)).status).toBe(404);
      expect((await call('GET', '/healthz')).status).toBe(200);
      expect((await call('GET', '/console/app.js')).status).toBe(200);
      expect((await call('GET', '/alerts/abc')).headers.get('content-type')).toMatch(/text\/html/);
      expect((await call('GET', '/nowhere')).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

describe('the API split by path segment', () => {
  it('answers every route, HEAD as GET, paths in any case, and unknown segments with 404 after the key check', async () => {
    const server = await spawnServe({ db: join(dir, 'segments.db') });
    try {
      const call = (method: string, path: string) => fetch(`${server.url}${path}`, { method, headers: { authorization: server.authorization } });
      for (const path of ['/v2/alerts/', '/v2/alerts', '/v2/notifications/', '/v2/schedules/', '/v2/deliveries/', '/v2/alerts/history/', '/v2/alerts/overview']) {
        expect((await call('GET', path)).status, path).toBe(200);
      }
      expect((await call('HEAD', '/v2/alerts/')).status).toBe(200);
      expect((await call('GET', '/v2/ALERTS/')).status).toBe(200);
      expect((await call('GET', '/v2/alerts/no-such-id')).status).toBe(404);
      expect((await call('PATCH', '/v2/alerts/')).status).toBe(404);
      expect((await call('GET', '/v2/unknown/')).status).toBe(404);
      expect((await call('GET', '/v2/%61lerts/')).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
