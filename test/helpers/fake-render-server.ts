import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readRenderFields } from '../../src/graphite/render-fields.js';
import type { RenderSeries } from '../../src/graphite/types.js';

/** A request the fake render endpoint received. */
export interface RenderRequest {
  /** The request's path: several clients can share the fake, each under a root of its own (`/a/render`). */
  path: string;
  /** When it arrived (epoch ms). */
  at: number;
  /** GET or POST: graphite-web reads the fields of both the query string and a form body. */
  method: string;
  /** The form body as sent (empty for a GET). */
  body: string;
  targets: string[];
  from: string | null;
  maxDataPoints: string | null;
  authorization: string | undefined;
}

/** What the fake answers for one request: series, or a status (with a body), or nothing for `delayMs`. */
export type RenderReply = { series: RenderSeries[]; delayMs?: number } | { status: number; body?: string; delayMs?: number };

/**
 * A stand-in for graphite-web's /render on 127.0.0.1:0, answering through `reply` (tests and the bench decide the
 * series). The real Graphite is used by the integration test; this one makes failures and delays reproducible.
 */
export async function startFakeRender(
  reply: (request: RenderRequest) => RenderReply | Promise<RenderReply>,
  /** `port`: listen on this one (a test that closes the fake and opens it again where the server reads); default a free one. */
  options: { port?: number } = {},
): Promise<{
  url: string;
  requests: RenderRequest[];
  close: () => Promise<void>;
}> {
  const requests: RenderRequest[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const at = Date.now();
    // A client that gives up mid-body (a timeout) leaves nothing to answer.
    const read = await readRenderFields(req).catch(() => null);
    if (!read) return;
    const { fields, path, body } = read;
    const request = {
      path,
      at,
      method: req.method ?? 'GET',
      body,
      targets: fields.getAll('target'),
      from: fields.get('from'),
      maxDataPoints: fields.get('maxDataPoints'),
      authorization: req.headers.authorization,
    };
    requests.push(request);
    void Promise.resolve(reply(request)).then(async (answer) => {
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      if (res.destroyed) return;
      if ('series' in answer) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.series));
      } else {
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? 'error');
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A series of `values` at `step` seconds ending at `end` (unix seconds). */
export function makeSeries(target: string, values: (number | null)[], end: number, step = 10): RenderSeries {
  const start = end - (values.length - 1) * step;
  return { target, datapoints: values.map((value, i) => [value, start + i * step] as [number | null, number]) };
}
