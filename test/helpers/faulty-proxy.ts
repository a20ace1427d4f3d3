import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy did to one request. */
export type ProxyFault = 'pass' | 'unavailable' | 'reset-before' | 'lost-answer' | 'delay';

export interface FaultyProxyOptions {
  /** Share of requests that get a fault (default 0.2). */
  failureRate?: number;
  /** Seed of the proxy's random choices: a failing run can be replayed. */
  seed?: number;
  /** Longest delay of a `delay` fault, ms (default 300); the shortest is a tenth of it. */
  maxDelayMs?: number;
}

/** A proxy that misbehaves like a bad network in front of a real server. */
export interface FaultyProxy {
  url: string;
  /** Every request with what was done to it. */
  log: { fault: ProxyFault; method: string; url: string }[];
  /** Sends later requests to another server (a new run on a fresh server, same proxy). */
  retarget(upstream: string): void;
  close(): Promise<void>;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same faults in the same order. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Starts a proxy on 127.0.0.1 that fails `failureRate` of all requests at random, each failure one of: a 503, a
 * connection reset before the request reaches the server, a reset after the server did the work (the answer is
 * lost: the hard case for creates), or a delay of the answer (past a short client timeout, another lost answer).
 */
export async function startFaultyProxy(upstream: string, options: FaultyProxyOptions = {}): Promise<FaultyProxy> {
  const random = seededRandom(options.seed ?? 1);
  const rate = options.failureRate ?? 0.2;
  const maxDelay = options.maxDelayMs ?? 300;
  const faults: ProxyFault[] = ['unavailable', 'reset-before', 'lost-answer', 'delay'];
  const log: FaultyProxy['log'] = [];
  let target = new URL(upstream);

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const fault = random() < rate ? faults[Math.floor(random() * faults.length)]! : 'pass';
      log.push({ fault, method: req.method!, url: req.url! });
      if (fault === 'unavailable') {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"internal","message":"proxy: upstream unavailable"}}');
        return;
      }
      if (fault === 'reset-before') {
        req.socket.destroy();
        return;
      }
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            // By now the server has done the work; only the answer is lost or late.
            if (fault === 'lost-answer') {
              req.socket.destroy();
              return;
            }
            const send = () => {
              if (res.destroyed) return;
              res.writeHead(answer.statusCode!, answer.headers);
              res.end(Buffer.concat(body));
            };
            if (fault === 'delay') setTimeout(send, maxDelay / 10 + random() * maxDelay * 0.9);
            else send();
          });
        },
      );
      forward.on('error', () => req.socket.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    retarget(next) {
      target = new URL(next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
