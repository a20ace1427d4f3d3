import { AlertformError } from '../model/errors.js';

/**
 * The most bytes one answer of a server may have before the CLI stops reading it: 64 MiB, some ten times the
 * largest list a default quota allows (10,000 alerts). Without a cap, a server (or whatever answers at its URL)
 * holds the CLI to the size of its answer: 3 GB to `pull` took 6.2 GB of memory, and was asked four more times.
 * `ALERTFORM_MAX_ANSWER_BYTES` raises (or lowers) it.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The cap in force: ALERTFORM_MAX_ANSWER_BYTES (a whole number of bytes) or the default. */
export function maxAnswerBytes(env: NodeJS.ProcessEnv = process.env): number {
  const set = env.ALERTFORM_MAX_ANSWER_BYTES?.trim();
  if (!set) return DEFAULT_MAX_ANSWER_BYTES;
  if (!/^\d+$/.test(set) || Number(set) < 1) {
    throw new AlertformError('bad_setting', `ALERTFORM_MAX_ANSWER_BYTES must be a whole number of bytes, not "${set.slice(0, 40)}"`);
  }
  return Number(set);
}

/** An answer larger than the cap: refused without reading the rest, and not worth asking again (same answer). */
export class AnswerTooLargeError extends AlertformError {
  constructor(
    readonly method: string,
    /** The request URL without credentials. */
    readonly url: string,
    readonly limit: number,
  ) {
    super(
      'answer_too_large',
      `${method} ${url} answered more than ${describeBytes(limit)}: stopped reading it (set ALERTFORM_MAX_ANSWER_BYTES to a larger number of bytes if this server's answers really are that large)`,
    );
  }
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * The body of `response` as text, read up to `limit` bytes: a Content-Length above it is refused before reading, a
 * body that grows past it (chunked, or lying about its length) is cancelled as soon as it does.
 */
export async function readCappedText(response: Response, limit: number, request: { method: string; url: string }): Promise<string> {
  const tooLarge = () => new AnswerTooLargeError(request.method, request.url, limit);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
