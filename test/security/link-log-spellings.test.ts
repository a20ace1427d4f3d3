import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/server-process.js';

// Before: the request log cut a signed link's token only when the path began with the prefix the router matches,
// so `GET /v2//graphs/<token>.png` and `/v2/graphs%2F<token>.png` (answered 401 by the key check) logged the token.

const dir = mkdtempSync(join(tmpdir(), 'af-link-spellings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A token as the server signs them: base64url(claims).base64url(HMAC-SHA256). The test looks for its MAC in the log.
const claims = Buffer.from(JSON.stringify({ a: 'al_0123456789abcdef', t: 1_790_000_000, e: 1_792_592_000 })).toString('base64url');
const mac = 'Zm9yZ2VkLW1hYy1vZi10aGUtbGluay10aGF0LWxlYWtzLXg';
const token = `${claims}.${mac}`;
const dotEncoded = `${claims}%2E${mac}`;

/** The spellings a fuzzer tries: each reaches some route (or the key check's 401) and a request log line. */
const spellings = [
  `/v2//graphs/${token}.png`,
  `//v2/graphs/${token}.png`,
  `/v2/graphs%2F${token}.png`,
  `/v2/graphs%2f${token}.png`,
  `/v2%2Fgraphs%2F${token}.png`,
  `/v2/graphs%252F${token}.png`,
  `/v2/%67raphs/${token}.png`,
  `/V2/GrApHs/${token}.png`,
  `/v2/./graphs/${token}.png`,
  `/v2/x/../graphs/${token}.png`,
  `/v2/graphs/./${token}.png`,
  `/v2/graphs/${token}.png/..`,
  `/v2/graphs/${token}.png/../../x`,
  `/v2/graphs/${token}.png;jsessionid=1`,
  `/v2/graphs;x/${token}.png`,
  `/v2/graphs/${token}.png%00`,
  `/v2/graphs/${token}.png%20junk`,
  `/v2\\graphs\\${token}.png`,
  `/v2/graphs/${dotEncoded}.png`,
  `/v2/ack-links//${token}`,
  `/v2/ack-links%2F${token}`,
  `/v2/ACK-LINKS/./${token}`,
  `/v2//ack-links/${token}/`,
  // Not a link route at all, but a token is a token wherever it is pasted.
  `/v2/alerts/${token}`,
  `/alerts/${dotEncoded}`,
];

/** GET `path` exactly as written: fetch() would resolve the dot segments and re-encode before sending. */
function rawGet(base: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port: Number(port), path, method: 'GET', headers: { accept: 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('signed-link tokens in the request log, whatever the spelling', () => {
  it('never show, and every request is still logged', async () => {
    const server = await spawnServe({ db: join(dir, 'log.db'), logLevel: 'debug' });
    const statuses: number[] = [];
    try {
      for (const path of spellings) statuses.push(await rawGet(server.url, path));
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // Every spelling was answered (no 500): a refusal, the key check or the open route's 404.
    for (const [i, status] of statuses.entries()) expect([spellings[i], status < 500]).toEqual([spellings[i], true]);
    const requests = server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; path?: string })
      .filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(spellings.length);
    for (const [i, line] of requests.entries()) {
      expect([spellings[i], line.path?.includes(mac.slice(0, 20))]).toEqual([spellings[i], false]);
      expect([spellings[i], line.path?.includes(claims.slice(0, 20))]).toEqual([spellings[i], false]);
      expect(line.path).toContain('(token)');
    }
    // The plain spellings read as the canonical prefix.
    expect(requests[0]!.path).toBe('/v2/graphs/(token)');
    expect(requests[2]!.path).toBe('/v2/graphs/(token)');
    expect(requests[19]!.path).toBe('/v2/ack-links/(token)');
    expect(server.stderr()).not.toContain(mac.slice(0, 20));
  }, 60_000);
});
