import { parseRetryAfter } from '../outbox/backoff.js';
import { DeliveryError } from './types.js';

/**
 * POSTs a JSON body (always built with JSON.stringify) and fails with a DeliveryError that names the service
 * and the status, never the URL: webhook URLs and keys are secrets.
 */
export async function postJson(
  service: string,
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; signal: AbortSignal },
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    throw networkError(service, error);
  }
  // Drain the body so the connection can be reused.
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) {
    const retryable = response.status >= 500 || response.status === 429 || response.status === 408;
    throw new DeliveryError(`${service} answered HTTP ${response.status}`, retryable, parseRetryAfter(response.headers.get('retry-after')));
  }
}

/** A DeliveryError for a request that got no answer, keeping only the error code (messages name hosts). */
export function networkError(service: string, error: unknown): DeliveryError {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new DeliveryError(`${service} did not answer in time`, true);
  const code = (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return new DeliveryError(`${service} could not be reached${code ? ` (${code})` : ''}`, true);
}

/** `base` (which may carry a path, e.g. a proxy prefix) joined with an absolute API path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
