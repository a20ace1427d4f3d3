import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawConnection, trickle } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Short timeouts so the test measures them instead of waiting 10 s: the production defaults are 10 s / 30 s.
const HEADERS_TIMEOUT = 600;
const REQUEST_TIMEOUT = 1_200;
// Node checks the timeouts every quarter of the shorter one (see startServer), plus scheduling noise.
const SLACK = HEADERS_TIMEOUT / 4 + 700;

let server: TestServer;
let auth: string;
/** Errors the server logged: a client's fault must never be logged (or answered) as an internal error. */
const loggedErrors: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      loggedErrors.push(chunk.toString());
      done();
    },
  });
  server = await startTestServer({
    headersTimeoutMs: HEADERS_TIMEOUT,
    requestTimeoutMs: REQUEST_TIMEOUT,
    logger: pino({ level: 'error' }, sink),
  });
  auth = `Basic ${Buffer.from(`${server.key}:`).toString('base64')}`;
});
afterAll(() => server.close());

async function stillServes(): Promise<void> {
  expect((await server.request('GET', '/healthz')).status).toBe(200);
  expect((await server.request('GET', '/v2/alerts/?max=1')).status).toBe(200);
}

describe('oversized requests', () => {
  it('answer 413 payload_too_large for a declared body over 1 MiB without reading it', async () => {
    const connection = await openRawConnection(server.url);
    connection.write(
      `POST /v2/alerts/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${64 * 1024 * 1024}\r\n\r\n{"name":"`,
    );
    // Nothing more is sent: the answer must come from the declared length alone.
    const { response } = await Promise.race([
      connection.closed,
      new Promise<{ response: string }>((resolve) => {
        const check = setInterval(() => {
          if (connection.received().includes('\r\n\r\n{')) {
            clearInterval(check);
            resolve({ response: connection.received() });
          }
        }, 10);
      }),
    ]);
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response).toContain('"code":"payload_too_large"');
    connection.socket.destroy();
    await stillServes();
  });

  it('stop reading a chunked body once it passes 1 MiB, answering 413 before the client has sent it all', async () => {
    const connection = await openRawConnection(server.url);
    connection.write(
      `POST /v2/alerts/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`);
    let sent = 0;
    // Up to 64 MiB, 64 KiB at a time, each write waiting for the socket to drain: a server that buffers the whole
    // body would make this take long and answer only at the end.
    while (sent < 1024 && !connection.received().includes('413')) {
      if (!connection.write(chunk)) break;
      sent++;
      if (connection.socket.writableNeedDrain) {
        await Promise.race([new Promise((resolve) => connection.socket.once('drain', resolve)), connection.closed]);
      }
    }
    const response = connection.received() || (await connection.closed).response;
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(1024);
    connection.socket.destroy();
    await stillServes();
  });

  it('answer 431 or 400 to 100 KiB of headers, and keep serving', async () => {
    const connection = await openRawConnection(server.url);
    connection.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(100 * 1024)}\r\n\r\n`);
    const { response } = await connection.closed;
    expect(response).toMatch(/^HTTP\/1\.1 (431|400) /);
    await stillServes();
  });
});

describe('slow requests', () => {
  it(`cut off a client sending its headers slowly after the header timeout (${HEADERS_TIMEOUT} ms)`, async () => {
    const connection = await openRawConnection(server.url);
    connection.write(`GET /v2/alerts/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n`);
    // One header line every 100 ms, forever: without a header timeout this would hold the socket indefinitely.
    const { afterMs, response } = await trickle(connection, 100, (n) => `X-Slow-${n}: a\r\n`);
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT - 50);
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT + SLACK);
    expect(response === '' || response.startsWith('HTTP/1.1 408 ')).toBe(true);
    await stillServes();
  });

  it(`cut off a client sending its body slowly after the request timeout (${REQUEST_TIMEOUT} ms)`, async () => {
    const connection = await openRawConnection(server.url);
    connection.write(
      `POST /v2/alerts/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Length: 100000\r\n\r\n{"name":"`,
    );
    const { afterMs, response } = await trickle(connection, 100, () => 'a');
    expect(afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
    expect(afterMs).toBeLessThan(REQUEST_TIMEOUT + SLACK);
    // Never a 5xx: either the 408 of the timeout or a closed socket; and no internal error in the log.
    expect(response).not.toMatch(/^HTTP\/1\.1 5/);
    await stillServes();
    expect(loggedErrors).toEqual([]);
  });

  it('keep answering others promptly while 50 slow clients hold connections', async () => {
    const slow = await Promise.all(Array.from({ length: 50 }, () => openRawConnection(server.url)));
    const timers = slow.map((connection, i) => {
      connection.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n`);
      return setInterval(() => connection.write(`X-${i}: a\r\n`), 100);
    });
    try {
      const started = performance.now();
      await stillServes();
      expect(performance.now() - started).toBeLessThan(HEADERS_TIMEOUT);
      const closes = await Promise.all(slow.map((connection) => connection.closed));
      for (const close of closes) expect(close.afterMs).toBeLessThan(HEADERS_TIMEOUT + SLACK);
    } finally {
      timers.forEach(clearInterval);
      slow.forEach((connection) => connection.socket.destroy());
    }
  });
});
