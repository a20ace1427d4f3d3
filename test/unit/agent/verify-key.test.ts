import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkApiKey, displayServer } from '../../../src/agent/verify-key.js';

// A stand-in for the /v2 API: 200 for the good key on GET /v2/alerts/?max=1, 401 otherwise.
let server: Server;
let url: string;
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    const user = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':')[0];
    if (request.url === '/broken/v2/alerts/?max=1') return void response.writeHead(500).end();
    response.writeHead(user === 'good-key-1234' ? 200 : 401, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('checking a key against the API', () => {
  it('accepts a key the API answers 200 for, asking GET /v2/alerts/?max=1 with the key as Basic user', async () => {
    expect(await checkApiKey(url, 'good-key-1234')).toEqual({ ok: true });
    expect(seen.at(-1)).toBe('GET /v2/alerts/?max=1');
  });

  it('refuses a key the API answers 401 for, without the key in the reason', async () => {
    const check = await checkApiKey(`${url}/`, 'bad-key-5678');
    expect(check).toEqual({ ok: false, reason: `the API key was refused by ${url} (HTTP 401): check it and try again` });
  });

  it('explains other answers and unreachable servers, and drops user-info from what it prints', async () => {
    expect(await checkApiKey(`${url}/broken`, 'good-key-1234')).toMatchObject({ ok: false, reason: expect.stringContaining('answered HTTP 500') });
    const unreachable = await checkApiKey('http://secret-user@127.0.0.1:1', 'good-key-1234');
    expect(unreachable.ok).toBe(false);
    if (!unreachable.ok) {
      expect(unreachable.reason).toContain('could not reach http://127.0.0.1:1 to check the key');
      expect(unreachable.reason).toContain('--no-verify');
      expect(unreachable.reason).not.toContain('secret-user');
    }
    expect(displayServer('https://k3y@api.example.com/')).toBe('https://api.example.com');
  });
});
