import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The body's exact text (what a signature is computed over). */
  raw: string;
}

/** How the receiver answers a request: a status, or a status with headers (e.g. Retry-After). */
export type ReceiverAnswer = number | { status: number; headers?: Record<string, string> };

/**
 * A webhook receiver on 127.0.0.1:0. `status` decides each answer (default 200); it may return a promise, which
 * holds the answer back (a sender that dies meanwhile never learns it was received). `next()` resolves with the
 * next request (or one already received and not yet taken), failing after `timeoutMs`: tests await events,
 * never sleep. Each received request records the status it was answered with in `answered` (same index).
 */
export async function startWebhookReceiver(status: (request: ReceivedRequest) => ReceiverAnswer | Promise<ReceiverAnswer> = () => 200) {
  const answered: (number | null)[] = [];
  const received: ReceivedRequest[] = [];
  let taken = 0;
  let waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Keep the raw text: a test asserting JSON will see it is not.
      }
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw: text };
      const index = received.push(request) - 1;
      answered.push(null);
      const wakeAll = () => {
        const current = waiters;
        waiters = [];
        for (const wake of current) wake();
      };
      void Promise.resolve(status(request)).then((answer) => {
        const { status: code, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        answered[index] = code;
        if (!res.destroyed) res.writeHead(code, { 'content-type': 'application/json', ...headers }).end('{}');
        wakeAll();
      });
      wakeAll();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  async function next(timeoutMs = 10_000): Promise<ReceivedRequest> {
    const deadline = Date.now() + timeoutMs;
    while (taken >= received.length) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no webhook request within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return received[taken++]!;
  }

  /** Resolves with the first received request (past or future) that `match` accepts. */
  async function waitFor(match: (request: ReceivedRequest) => boolean, timeoutMs = 10_000): Promise<ReceivedRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching request within ${timeoutMs} ms (got ${received.map((r) => r.path).join(', ') || 'none'})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answered,
    next,
    waitFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
