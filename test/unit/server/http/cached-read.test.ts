import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedReads, type CachedReadDeps } from '../../../../src/server/http/cached-read.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server that tries the fast path with `deps`, and answers 418 from "Koa" (any other handler) when it declines. */
async function serve(deps: Partial<CachedReadDeps>) {
  const fast = cachedReads({
    accounts: { findByHeader: () => undefined },
    alerts: { peekAlert: () => undefined },
    now: Date.now,
    evaluation: { evaluatingKnown: () => true },
    logger: pino({ level: 'silent' }),
    ...deps,
  });
  const server = createServer((req, res) => {
    if (!fast(req, res)) res.writeHead(418).end('koa');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the cached-read fast path on its own', () => {
  it('leaves the request, untouched, to the next handler when looking it up throws', async () => {
    const url = await serve({
      accounts: { findByHeader: () => ({ id: 'account' }) as never },
      alerts: {
        peekAlert: () => {
          throw new Error('broken');
        },
      },
    });
    const answer = await fetch(`${url}/v2/alerts/${'a'.repeat(32)}`, { headers: { authorization: 'Bearer x' } });
    expect(answer.status).toBe(418);
    expect(await answer.text()).toBe('koa');
  });

  it('never looks up a request without an Authorization header, or one that is not a GET', async () => {
    const looked: string[] = [];
    const url = await serve({
      accounts: {
        findByHeader: (header) => {
          looked.push(header);
          return undefined;
        },
      },
    });
    const path = `${url}/v2/alerts/${'a'.repeat(32)}`;
    expect((await fetch(path)).status).toBe(418);
    expect((await fetch(path, { method: 'POST', headers: { authorization: 'Bearer x' }, body: '{}' })).status).toBe(418);
    expect(looked).toEqual([]);
    expect((await fetch(path, { headers: { authorization: 'Bearer x' } })).status).toBe(418);
    expect(looked).toEqual(['Bearer x']);
  });
});
