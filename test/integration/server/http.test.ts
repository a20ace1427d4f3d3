import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { startServer } from '../../../src/server/index.js';
import { openSqliteStore, type SqliteStore } from '../../../src/server/store/sqlite/sqlite-store.js';
import { sendRequest, startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ keys: ['the-key'] });
});
afterAll(() => server.close());

/** A raw request, as clients that put the key in the URL user-info send it (node:http with `auth`). */
function rawRequest(options: { method: string; path: string; auth?: string; headers?: Record<string, string>; body?: string | Buffer }) {
  return new Promise<{ status: number; body: any; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, method: options.method, path: options.path, auth: options.auth, headers: options.headers },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('authentication', () => {
  it('accepts the key as URL user-info (Basic with an empty password) and as a Bearer token', async () => {
    expect((await rawRequest({ method: 'GET', path: '/v2/alerts/', auth: 'the-key:' })).status).toBe(200);
    expect((await rawRequest({ method: 'GET', path: '/v2/alerts/', auth: 'the-key:anything' })).status).toBe(200);
    expect((await server.request('GET', '/v2/alerts/', undefined, { bearer: true })).status).toBe(200);
  });

  it('answers 401 with WWW-Authenticate and a JSON body for a missing, wrong or malformed key', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: 'Basic !!!' }, { authorization: 'Token the-key' }]) {
      const response = await rawRequest({ method: 'GET', path: '/v2/alerts/', headers });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="alertform"');
      expect(response.body.error.code).toBe('unauthorized');
      expect(JSON.stringify(response.body)).not.toContain('the-key');
    }
  });

  it('asks for a key even on paths that do not exist, and answers 404 not_found to an authenticated one', async () => {
    expect((await server.request('GET', '/v2/nothing-here/', undefined, { key: null })).status).toBe(401);
    const missing = await server.request('GET', '/v2/nothing-here/');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('a revoked key gets 401', async () => {
    const revocable = await startTestServer({ keys: ['soon-revoked'] });
    try {
      const [record] = await revocable.store.accounts.listApiKeys();
      await revocable.store.accounts.revokeApiKey(record!.id);
      expect((await revocable.request('GET', '/v2/alerts/')).status).toBe(401);
    } finally {
      await revocable.close();
    }
  });
});

describe('request bodies', () => {
  it('accepts JSON whatever the Content-Type says, even none', async () => {
    const body = JSON.stringify({ name: 'no-ctype', metric: 'm', alert_criteria: { type: 'above', above_value: 1 } });
    expect((await rawRequest({ method: 'POST', path: '/v2/alerts/', auth: 'the-key:', body })).status).toBe(201);
    const asText = await rawRequest({ method: 'POST', path: '/v2/alerts/', auth: 'the-key:', headers: { 'content-type': 'text/plain' }, body: body.replace('no-ctype', 'text-ctype') });
    expect(asText.status).toBe(201);
  });

  it('answers 400 invalid_body for malformed JSON and for JSON that is not an object', async () => {
    for (const body of ['{"name":', '[1,2]', '"text"', 'null', '42']) {
      const response = await server.request('POST', '/v2/alerts/', body);
      expect([body, response.status, response.body.error.code]).toEqual([body, 400, 'invalid_body']);
    }
    // Malformed JSON is 400 even on the channel create, whose invalid-form status is 404.
    expect((await server.request('POST', '/v2/notifications/', '{oops')).status).toBe(400);
  });

  it('answers 413 payload_too_large for a body over 1 MiB, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'big', metric: 'm', alert_criteria: { type: 'above', above_value: 1 }, info: 'x'.repeat(1024 * 1024) });
    const response = await server.request('POST', '/v2/alerts/', big);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
    const chunked = await rawRequest({ method: 'POST', path: '/v2/alerts/', auth: 'the-key:', headers: { 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
    // The server is still fine afterwards.
    expect((await server.request('GET', '/v2/alerts/')).status).toBe(200);
  });
});

describe('open endpoints', () => {
  it('GET /healthz answers 200 without a key', async () => {
    const response = await server.request('GET', '/healthz', undefined, { key: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('GET /v2/openapi.json answers an OpenAPI 3.1 document of every endpoint, built from the schemas', async () => {
    const response = await server.request('GET', '/v2/openapi.json', undefined, { key: null });
    expect(response.status).toBe(200);
    const doc = response.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/v2/alerts/', '/v2/alerts/{id}/', '/v2/alerts/{id}/muted/', '/v2/alerts/muted/', '/v2/alerts/history/',
      '/v2/notifications/', '/v2/notifications/{id}/', '/v2/schedules/', '/v2/schedules/{id}/', '/v2/deliveries/',
    ]));
    const operations = Object.values(doc.paths).flatMap((path: any) => Object.keys(path));
    // The open ones (/healthz, /readyz, /metrics, this document), the 22 of the API (with /v2/deliveries/), then
    // the console's extensions (graph, timeline, backtest, definition, graph picture, delivery retry, channel test),
    // and the console's overview and scheduled mutes.
    // The four of acknowledgements: ack, withdraw, and the one-click link's GET and POST.
    // The channel signing secret of webhook bodies and its rotation, and /healthz/evaluation.
    // The six of maintenance windows (list, create, preview, get, put, delete) and the overview's groups.
    expect(operations.length).toBe(4 + 22 + 7 + 2 + 4 + 2 + 1 + 6 + 1);
    expect(doc.webhooks.notification.post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/WebhookPayload" });
    expect(doc.components.schemas['alert.criteria'].properties.above_value.type).toBe('number');
    // Every $ref points at a schema that exists in the document.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.slice(ref.indexOf('#/components/schemas/') + '#/components/schemas/'.length, -1);
      expect(doc.components.schemas, ref).toHaveProperty([name]);
    }
    expect(doc.paths['/v2/notifications/'].post.responses).toHaveProperty('404');
    expect(doc.paths['/v2/alerts/{id}/'].delete.responses).toHaveProperty('400');
  });
});

describe('unexpected failures', () => {
  it('are answered 500 internal without a stack, and logged without the key', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
    const store = openSqliteStore(':memory:');
    const broken = Object.create(store) as SqliteStore;
    broken.alerts.searchAlerts = async () => {
      throw new Error('disk on fire');
    };
    const running = await startServer({ store: broken, logger, host: '127.0.0.1', port: 0, apiKeys: ['secret-key-123'] });
    try {
      const response = await sendRequest(running.url, 'secret-key-123', 'GET', '/v2/alerts/');
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: { code: 'internal', message: 'internal error' } });
      expect(lines.join('')).toContain('disk on fire');
      expect(lines.join('')).not.toContain('secret-key-123');
    } finally {
      await running.close();
    }
  });
});
