import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/server/net/address-class.js';
import { PUBLIC_ONLY } from '../../src/server/net/destination-policy.js';
import { sendNotification } from '../../src/server/notifiers/send.js';
import { DEFAULT_NOTIFIER_SETTINGS } from '../../src/server/notifiers/delivery.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { channel, plainNotification } from '../unit/server/notifiers/fixtures.js';

// Issue 19, item 7 (the server's low findings). Before: /metrics (aggregates over every tenant) answered anyone
// who reached the port; SIIT ::ffff:0:a.b.c.d, NAT64 local-use 64:ff9b:1::/48 and Teredo 2001::/32 passed the
// destination check, and so did `localhost.` at create; last_error said "host not found" for a name that does not
// resolve and "destination refused: loopback address" for one that resolves to loopback; an email channel took any
// number of recipients. After: each is refused, bounded or said alike.

const METRICS_TOKEN = 'metrics-token-of-the-operator-0123456789';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ metricsToken: METRICS_TOKEN });
});
afterAll(() => server.close());

describe('GET /metrics with --metrics-token', () => {
  it('answers 401 without the token or with a wrong one, and the exposition with it', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Basic ${Buffer.from(`${METRICS_TOKEN}:`).toString('base64')}` }] as Record<string, string>[]) {
      const response = await fetch(`${server.url}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('unauthorized');
      expect(JSON.stringify(body)).not.toContain('alertform_');
    }
    // An API key is not the metrics token either.
    expect((await server.request('GET', '/metrics', undefined, { bearer: true })).status).toBe(401);
    const allowed = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toMatch(/^alertform_/m);
    // The health endpoints stay open.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('destinations', () => {
  it.each([
    ['http://[::ffff:0:127.0.0.1]/hook', 'loopback address'],
    ['http://[::ffff:0:a00:1]/hook', 'private address'],
    ['http://[64:ff9b:1::7f00:1]/hook', 'reserved address'],
    ['http://[64:ff9b:1:2::5db8:d70e]/hook', 'reserved address'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', 'reserved address'],
    ['http://localhost./hook', 'loopback address'],
    ['http://LOCALHOST../hook', 'loopback address'],
    ['http://api.localhost./hook', 'loopback address'],
  ])('refuses %s at create as a %s', async (destination, kind) => {
    const response = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: `d ${destination}`, destination });
    // The seed documents 404 for an invalid channel body; the code says what it is.
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('invalid_body');
    expect(response.body.error.details).toEqual([{ path: 'destination', message: `must not lead to a ${kind} (see https://github.com/alertform/alertform/blob/main/docs/security.md)` }]);
  });

  it('classifies the SIIT, NAT64 local-use and Teredo spellings as not public', () => {
    expect(classifyAddress('::ffff:0:8.8.8.8')).toBeNull();
    expect(classifyAddress('::ffff:0:169.254.169.254')).toBe('metadata address');
    expect(classifyAddress('64:ff9b:1::808:808')).toBe('reserved address');
    expect(classifyAddress('2001::1')).toBe('reserved address');
    // Neighbours stay public: other 2001: space, and the well-known NAT64 prefix with a public IPv4 address.
    expect(classifyAddress('2001:4860:4860::8888')).toBeNull();
    expect(classifyAddress('64:ff9b::808:808')).toBeNull();
  });

  it('says the same in last_error whether a name does not resolve or resolves to a refused address', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const settings = { ...DEFAULT_NOTIFIER_SETTINGS, destinations: PUBLIC_ONLY };
      const port = new URL(receiver.url).port;
      const outcomes = [];
      for (const url of [`http://localhost:${port}/hook`, 'http://no-such-host.invalid/hook', `http://localhost.:${port}/hook`]) {
        const error = await sendNotification(channel('webhook', url), plainNotification(), settings, AbortSignal.timeout(5_000)).catch((e: unknown) => e);
        outcomes.push({ message: (error as Error).message, retryable: (error as { retryable: boolean }).retryable });
      }
      expect(outcomes).toEqual([
        { message: 'webhook could not be reached', retryable: true },
        { message: 'webhook could not be reached', retryable: true },
        { message: 'webhook could not be reached', retryable: true },
      ]);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('email channels', () => {
  const addresses = (n: number) => Array.from({ length: n }, (_, i) => `person${i}@example.com`).join(', ');

  it('take at most 10 recipients', async () => {
    const over = await server.request('POST', '/v2/notifications/', { type: 'email', description: 'too many', destination: addresses(11) });
    expect([over.status, over.body.error.code]).toEqual([404, 'invalid_body']);
    expect(over.body.error.details).toEqual([{ path: 'destination', message: 'has 11 email addresses: at most 10 per channel' }]);
    const many = await server.request('POST', '/v2/notifications/', { type: 'email', description: 'many', destination: addresses(500) });
    expect(many.status).toBe(404);
    expect((await server.request('POST', '/v2/notifications/', { type: 'email', description: 'ten', destination: addresses(10) })).status).toBe(201);
  });

  it('say the cap in the OpenAPI document', async () => {
    const document = await server.request('GET', '/v2/openapi.json', undefined, { key: null });
    expect(JSON.stringify(document.body)).toContain('comma separated, at most 10');
  });
});
