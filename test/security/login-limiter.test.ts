import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 19, item 6. Before: 20 wrong keys from one address, then every request from it was answered 429 for 60 s,
// right keys included: behind a NAT or a proxy, one person's typos (or a guesser) locked everyone out. After: the
// failures are counted and wrong keys are refused 429, but a key that authenticates always gets through.

let server: TestServer;
const VALID = 'a-valid-operator-key-of-24-characters';
const OTHER = 'another-valid-operator-key-of-24-chars';
beforeAll(async () => {
  // The defaults: 20 failures per address per 60 s.
  server = await startTestServer({ keys: [VALID, OTHER] });
});
afterAll(() => server.close());

describe('the failed-login limiter', () => {
  it('lets valid keys from the same address through after 20 wrong ones, and keeps refusing wrong ones', async () => {
    for (let i = 0; i < 20; i += 1) expect((await server.request('GET', '/v2/alerts/', undefined, { key: `wrong-guess-${i}` })).status).toBe(401);
    const limited = await server.request('GET', '/v2/alerts/', undefined, { key: 'wrong-guess-20' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Two people behind the same address, each with their own key.
    expect((await server.request('GET', '/v2/alerts/', undefined, { key: VALID })).status).toBe(200);
    expect((await server.request('GET', '/v2/alerts/', undefined, { key: OTHER, bearer: true })).status).toBe(200);
    // A success does not wipe the count: the next wrong key is still refused, and so is a request without a key.
    expect((await server.request('GET', '/v2/alerts/', undefined, { key: 'wrong-guess-21' })).status).toBe(429);
    expect((await server.request('GET', '/v2/alerts/', undefined, { key: null })).status).toBe(429);
  });
});
