import { initialEvalState, type EvalState } from './transitions.js';

/**
 * The evaluator's state as it is stored and carried: the JSON text of the alerts' eval_state column, in every
 * record that holds it (the store's AlertRecord, the evaluator's EvaluationAlert and EvaluationUpdate). Text, not
 * a parsed object, because the evaluator compares a new state's text with the stored one to skip unchanged saves,
 * and parses each distinct text once (server/evaluator/state-text-cache.ts). These two functions are the only way
 * between the text and an EvalState.
 */
export type StoredEvalState = string;

/** The state a stored text holds, or null when it holds none the evaluator takes (unreadable, another version). */
export function storedEvalState(text: StoredEvalState | null): EvalState | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const state = value as Partial<EvalState> | null;
  if (!state || state.version !== 1 || (state.status !== 'healthy' && state.status !== 'alerting') || !Array.isArray(state.triggered)) return null;
  return { ...initialEvalState(), ...state } as EvalState;
}

/**
 * Parses a stored state, falling back on the alert's stored status when there is none the evaluator takes (absent,
 * unreadable, or written by something else).
 */
export function parseEvalState(text: StoredEvalState | null, status: string, triggeredMetrics: readonly string[]): EvalState {
  return storedEvalState(text) ?? initialEvalState(status, triggeredMetrics);
}

/** The text to store for a state (parseEvalState reads it back equal). */
export function serializeEvalState(state: EvalState): StoredEvalState {
  return JSON.stringify(state);
}
