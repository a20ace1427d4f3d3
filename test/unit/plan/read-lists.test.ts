import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertformClient } from '../../../src/client/api.js';
import { ApiResponseError } from '../../../src/client/errors.js';
import { readLists } from '../../../src/plan/state.js';

/**
 * A server whose alerts list fails at once and whose other lists answer slowly: what readLists leaves running once
 * the read has failed. Each slow answer records whether its connection was closed before it ended.
 */
async function serverWithOneFailingList(failing: (res: ServerResponse) => void) {
  const slow: { path: string; closedEarly: Promise<boolean> }[] = [];
  let othersStarted!: () => void;
  const allStarted = new Promise<void>((resolve) => (othersStarted = resolve));
  const server = createServer((req, res) => {
    // Fails once the three others are under way (an earlier failure could give them up before they reach here).
    if (req.url!.startsWith('/v2/alerts/')) return void allStarted.then(() => failing(res));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"items":[');
    // Never ended by the server: only the client gives it up.
    slow.push({ path: req.url!, closedEarly: new Promise((resolve) => res.once('close', () => resolve(!res.writableEnded))) });
    if (slow.length === 3) othersStarted();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, slow };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

describe('readLists', () => {
  it('gives the other lists up as soon as one fails, and answers with that failure', async () => {
    const s = await serverWithOneFailingList((res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"unauthorized"}');
    });
    const client = new AlertformClient({ server: s.url, retry: { retries: 3, sleep: async () => undefined } });
    const error = await readLists(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).status).toBe(401);
    // The three other lists had started; each was closed by the client, none ran to an end.
    expect(await Promise.all(s.slow.map((r) => r.closedEarly))).toEqual([true, true, true]);
  });

  it('cuts a sibling\'s wait before its retry short, and does not retry it', async () => {
    let attempts = 0;
    let othersWaiting!: () => void;
    const allWaiting = new Promise<void>((resolve) => (othersWaiting = resolve));
    const server = createServer((req, res) => {
      if (req.url!.startsWith('/v2/alerts/')) {
        // Fails once the three others wait to retry.
        void allWaiting.then(() => {
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end('{"error":"forbidden"}');
        });
        return;
      }
      attempts += 1;
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":"busy"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    let waiting = 0;
    // A wait before a retry that only an abort ends.
    const sleep = () => {
      if (++waiting === 3) othersWaiting();
      return new Promise<void>(() => undefined);
    };
    const client = new AlertformClient({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retry: { retries: 3, onRetry: () => undefined, sleep } });
    // Which lists have ended, failed or not: a list still waiting to retry has not.
    const ended: string[] = [];
    for (const list of ['listSchedules', 'listChannels', 'listAlerts', 'listMaintenanceWindows'] as const) {
      const read = client[list].bind(client) as (signal?: AbortSignal) => Promise<never>;
      client[list] = ((signal?: AbortSignal) => read(signal).finally(() => ended.push(list))) as never;
    }
    const error = await readLists(client).catch((e: unknown) => e);
    expect((error as ApiResponseError).status).toBe(403);
    await expect.poll(() => ended.length).toBe(4);
    // Each of the three others asked once, waited to retry, and asked no more.
    expect([waiting, attempts]).toEqual([3, 3]);
  });
});
