import type { IncomingMessage } from 'node:http';
import { HttpError } from '../errors.js';

/** The largest request body the server reads. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads a request body as a JSON object, whatever its Content-Type (clients of the hosted API often send none).
 * An empty body is `{}`. Larger than the limit: 413. Not JSON: 400. JSON but not an object: 400.
 */
export async function readJsonBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Record<string, unknown>> {
  const text = await readBodyText(req, limit);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new HttpError('invalid_body', `body is not valid JSON: ${(error as Error).message}`, {
      details: [{ path: '', message: 'is not valid JSON' }],
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError('invalid_body', 'body must be a JSON object', {
      details: [{ path: '', message: 'must be a JSON object' }],
    });
  }
  const values = countValues(parsed, BODY_VALUE_LIMIT);
  if (values > BODY_VALUE_LIMIT) {
    throw new HttpError('invalid_body', `body has more than ${BODY_VALUE_LIMIT} values`, {
      details: [{ path: '', message: `has more than ${BODY_VALUE_LIMIT} array items and fields` }],
    });
  }
  return parsed as Record<string, unknown>;
}

/** Reads a request body as UTF-8 text: larger than the limit, 413; cut off by the client, 400. */
export async function readBodyText(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Stop reading at once: the rest of an oversized body is never buffered.
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // The client went away (or was cut off by the request timeout) mid-body: its fault, not an internal error.
    throw new HttpError('invalid_body', 'request body was not received completely', {
      cause: error,
      details: [{ path: '', message: 'was cut off' }],
    });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Array items and object fields a body may hold in all. The largest real body is a bulk mute of every alert of
 * an account (the alert quota is 10,000 by default); the bound keeps schema validation of a hostile 1 MiB body
 * (500,000 bad items, each one a validation error) from holding the event loop.
 */
export const BODY_VALUE_LIMIT = 20_000;

/** How many array items and object fields `value` holds at any depth, counting no further than `limit` + 1. */
function countValues(value: object, limit: number): number {
  let count = 0;
  const stack: object[] = [value];
  while (stack.length > 0 && count <= limit) {
    const current = stack.pop()!;
    const children = Array.isArray(current) ? current : Object.values(current);
    count += children.length;
    if (count > limit) break;
    for (const child of children) if (child !== null && typeof child === 'object') stack.push(child as object);
  }
  return count;
}

function tooLarge(limit: number): HttpError {
  return new HttpError('payload_too_large', `request body is larger than ${limit} bytes`);
}
