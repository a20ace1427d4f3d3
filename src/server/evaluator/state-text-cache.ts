import { deepFreeze } from '../deep-freeze.js';
import { parseEvalState, serializeEvalState, storedEvalState, type StoredEvalState } from '../../evaluation/stored-state.js';
import type { EvalState } from '../../evaluation/transitions.js';

/**
 * The parsed previous states of a cycle, by their stored text, and whether a new state is that same text without
 * serializing it. A cycle used to parse every alert's eval_state and serialize every new state to compare it with the
 * stored one; most alerts, most cycles, end where they were, and many share one text (every alert that is healthy
 * and never alerted has the same state). Keyed by the text, not by the alert, and bounded: the memory stays flat
 * whatever the number of alerts (at most MAX_TEXTS states; a full cache starts over, which costs what the cycle cost
 * before: one parse and one serialization per alert).
 *
 * A cached state is shared by every alert with that text, across cycles, so it is frozen (deeply): advanceAlert
 * returns new states and never changes the one it is given, and a change in place would throw instead of leaking
 * into other alerts.
 */
const MAX_TEXTS = 8_192;

interface Entry {
  state: EvalState;
  /** Whether serializeEvalState(state) gives the text back (undefined: not checked yet). */
  roundTrips?: boolean;
  /** The state's own keys in order (JSON.stringify writes them in this order). */
  keys: string[];
}

const entries = new Map<string, Entry>();

/** parseEvalState(text, status, triggeredMetrics), parsed once per distinct text while it stays cached. */
export function previousStateOf(text: StoredEvalState | null, status: string, triggeredMetrics: readonly string[]): EvalState {
  if (text === null) return parseEvalState(null, status, triggeredMetrics);
  const cached = entries.get(text);
  if (cached) return cached.state;
  const state = storedEvalState(text);
  // A text the evaluator does not take falls back on the alert's status: not a function of the text, not cached.
  if (state === null) return parseEvalState(null, status, triggeredMetrics);
  if (entries.size >= MAX_TEXTS) entries.clear();
  entries.set(text, { state: deepFreeze(state), keys: Object.keys(state) });
  return state;
}

/**
 * The stored text when `next` is known to serialize to it (the same own keys in the same order, each value the
 * same (===) as in `previous`, which came from that text and serializes back to it); undefined: serialize and compare.
 */
export function unchangedText(text: StoredEvalState | null, previous: EvalState, next: EvalState): string | undefined {
  if (text === null) return undefined;
  const entry = entries.get(text);
  if (!entry || entry.state !== previous) return undefined;
  const keys = Object.keys(next);
  if (keys.length !== entry.keys.length) return undefined;
  const before = previous as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i]!;
    if (key !== entry.keys[i] || after[key] !== before[key]) return undefined;
  }
  entry.roundTrips ??= serializeEvalState(previous) === text;
  return entry.roundTrips ? text : undefined;
}
