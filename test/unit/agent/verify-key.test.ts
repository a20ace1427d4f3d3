import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkApiKey, displayServer } from '../../../src/agent/verify-key.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// The real /v2 server answers the check.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ keys: ['good-key-1234'] });
});
afterAll(() => server.close());

describe('checking a key against the API', () => {
  it('accepts a key the API answers 200 for on GET /v2/alerts/?max=1 with the key as Basic user', async () => {
    expect(await checkApiKey(server.url, 'good-key-1234')).toEqual({ ok: true });
  });

  it('refuses a key the API answers 401 for, without the key in the reason', async () => {
    const check = await checkApiKey(`${server.url}/`, 'bad-key-5678');
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.reason).toMatch(new RegExp(`^the API key was refused by ${server.url} \\(HTTP 40[13]\\): check it and try again$`));
      expect(check.reason).not.toContain('bad-key-5678');
    }
  });

  it('explains other answers and unreachable servers, and drops user-info from what it prints', async () => {
    const wrongPath = await checkApiKey(`${server.url}/not-the-api`, 'good-key-1234');
    expect(wrongPath).toMatchObject({ ok: false, reason: expect.stringMatching(/answered HTTP 404 to GET \/v2\/alerts\/\?max=1, so the key could not be checked/) });
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
