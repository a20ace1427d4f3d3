import autocannon from 'autocannon';

/** One autocannon run's figures. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: must be 0 for the figure to count. */
  failures: number;
}

/** What to send: one request shape, repeated; `body(n)` makes the body of the n-th request (unique names). */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: (n: number) => string;
}

/** Settings every run of a benchmark shares, so the server and its baseline are driven identically. */
export interface LoadSettings {
  connections: number;
  seconds: number;
}

/** Numbers the bodies of every run of this process, so that names stay unique across runs. */
let sequence = 0;

/** Drives `url` with autocannon from this process and returns its figures. */
export async function runLoad(url: string, request: LoadRequest, settings: LoadSettings): Promise<LoadResult> {
  const makeBody = request.body;
  const result = await autocannon({
    url,
    connections: settings.connections,
    duration: settings.seconds,
    // autocannon's own [<id>] replacement assumes a fixed id length for Content-Length and hangs when it differs.
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: { 'content-type': 'application/json', ...request.headers },
        ...(makeBody ? { setupRequest: (sent: { body?: string }) => ({ ...sent, body: makeBody(sequence++) }) } : {}),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
