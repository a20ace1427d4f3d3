import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { refuseAddress, type DestinationPolicy } from './destination-policy.js';

/** A connection the destination policy refused; its message is the class, e.g. "private address". */
export class DestinationRefusedError extends Error {
  readonly code = 'EDESTINATIONREFUSED';
  constructor(readonly refusal: string) {
    super(`destination refused: ${refusal}`);
    this.name = 'DestinationRefusedError';
  }
}

/**
 * A `lookup` for http(s) agents that resolves as usual and drops the addresses the policy refuses, failing when
 * none is left. It runs for every new connection, on the addresses really connected to, so a name that resolves
 * to a public address when the channel is saved and to 127.0.0.1 later (DNS rebinding) is still refused.
 */
export function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return ((hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      let refusal: string | null = null;
      const allowed = addresses.filter((entry) => {
        const reason = refuseAddress(policy, hostname, entry.address);
        refusal ??= reason;
        return reason === null;
      });
      if (allowed.length === 0) return callback(new DestinationRefusedError(refusal ?? 'no address'));
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  }) as LookupFunction;
}
