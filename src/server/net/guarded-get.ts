import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { refuseAddress, type DestinationPolicy } from './destination-policy.js';
import { guardedLookup } from './guarded-lookup.js';

/** Why a GET got no 2xx, in words that name no host and no path (the URL may be a secret, e.g. a ping URL). */
export class GetFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GetFailed';
  }
}

/**
 * One GET of `url` under the destination policy (checked on the address really connected to, as deliveries are),
 * on a connection of its own, with no redirect followed (a 3xx is a failure). Resolves with the 2xx status once
 * the (discarded) body is read; rejects with a GetFailed that says the class of failure only.
 */
export function guardedGet(url: string, options: { policy: DestinationPolicy; signal: AbortSignal; headers?: Record<string, string> }): Promise<number> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a lookup, so it is judged here; names are judged by the lookup.
  const refusal = isIP(host) !== 0 ? refuseAddress(options.policy, host, host) : null;
  if (refusal) return Promise.reject(new GetFailed(`destination refused: ${refusal}`));
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const request = send(
      target,
      { method: 'GET', agent: false, lookup: guardedLookup(options.policy), headers: options.headers ?? {}, signal: options.signal },
      (response) => {
        response.resume();
        response.on('error', () => reject(new GetFailed('answer cut off')));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(status);
          else reject(new GetFailed(status >= 300 && status < 400 ? 'redirect refused' : `answered HTTP ${Math.floor(status / 100)}xx`));
        });
      },
    );
    request.on('error', (error: Error & { code?: string }) => {
      if (error.name === 'AbortError') reject(new GetFailed('timed out'));
      else if (error.code === 'EDESTINATIONREFUSED') reject(new GetFailed(error.message));
      else reject(new GetFailed('could not be reached'));
    });
    request.end();
  });
}
