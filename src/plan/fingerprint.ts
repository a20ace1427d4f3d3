import { createHash } from 'node:crypto';
import type { Plan } from './types.js';

/** JSON with object keys sorted, so equal values always give equal text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A fingerprint of what a plan would do (its changes, with secret values included only through the hash), so that
 * two plans doing the same thing compare equal: a saved or reviewed plan is applied only if a fresh plan matches.
 */
export function fingerprintPlan(plan: Plan): string {
  const changes = plan.changes.map((c) => {
    // The window's reach is what the desired alerts say, not a step apply takes.
    const { source: _source, wouldMute: _wouldMute, nextOccurrence: _nextOccurrence, ...rest } = c;
    // `until` is kept: a mute's end is part of what was reviewed. `minutes` moves with the clock, so it is not.
    if (rest.action === 'mute') return { ...rest, minutes: undefined, remainingBefore: undefined };
    return rest;
  });
  return sha256(stableStringify(changes));
}
