import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** A request's answer: its status and its body's bytes. */
export interface BodyAnswer {
  status: number;
  body: Buffer;
}

/** Keep-alive connections to one render endpoint, at most `sockets` at once. */
export function createAgent(url: URL, sockets: number): HttpAgent {
  const options = { keepAlive: true, maxSockets: sockets };
  return url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * POST `form` (an application/x-www-form-urlencoded body, ASCII: every value already escaped) to `url` and read the
 * whole answer (bytes: the render answer's reader works on them, without a string of the whole answer). The body's
 * Content-Length is set by node:http from the one `end(form)` (no chunked encoding, which WSGI servers such as
 * graphite-web's may not read). A URL string rather than options made once: request interceptors (nock, in tests)
 * match on what http.request derives from it. node:http rather than fetch: a cycle makes hundreds of render
 * requests of hundreds of series each, and fetch's web streams cost about twice the CPU per answer. Fails as fetch
 * does: a network error carries its `code`; past `timeoutMs` (from the request's start to its body's end) an error
 * named TimeoutError.
 *
 * The deadline is a plain timer rather than an AbortSignal.timeout: a signal per request costs a timer all the same
 * plus the signal, its listeners and the stream hooks that watch it (addAbortSignal, end-of-stream), and that code
 * was deoptimized at every full collection between two cycles and compiled again (see docs/benchmarks.md).
 */
export function postForm(
  url: string,
  form: string,
  options: { agent: HttpAgent; headers: Record<string, string>; timeoutMs: number },
): Promise<BodyAnswer> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, { method: 'POST', agent: options.agent, headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      });
      // A connection cut mid-answer is an error here too (ECONNRESET "aborted").
      response.on('error', fail);
    });
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${options.timeoutMs} ms`);
      error.name = 'TimeoutError';
      // Settled first: the destroyed request's own error comes after and changes nothing.
      reject(error);
      request.destroy(error);
    }, options.timeoutMs);
    timer.unref();
    request.on('error', fail);
    request.end(form, 'latin1');
  });
}
