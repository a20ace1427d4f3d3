import type { AlertState } from './types.js';

/**
 * What an alert's state depends on, as the store holds it: the documented status and the evaluator's memory of the
 * alert (src/evaluation/transitions.ts, EvalState).
 */
export interface StateFacts {
  /** The documented status: healthy or alerting. */
  status: string;
  /** Whether the evaluator has judged the alert at least once (it stored a state for it). */
  evaluated: boolean;
  /** Whether the alert's queries failed at the last cycle. */
  queryFailing: boolean;
  /** Whether the last cycle that had answers found no data to judge (and the alert's policy does not make that alerting). */
  noData: boolean;
}

/**
 * The one answer to "what is this alert's state now", given by every surface (API read, console, `status`,
 * history, /metrics). `evaluating`: whether anything evaluates this server's alerts at all. The most pressing
 * uncertainty wins: an alert nobody evaluates cannot be known, one whose queries fail cannot either, one without data
 * has nothing to be judged on; only then do alerting and healthy say something.
 */
export function alertStateOf(facts: StateFacts, evaluating: boolean): AlertState {
  if (!evaluating || !facts.evaluated) return 'not_evaluated';
  if (facts.queryFailing) return 'query_failing';
  if (facts.noData) return 'no_data';
  return facts.status === 'alerting' ? 'alerting' : 'healthy';
}

/**
 * The facts of a stored alert: its status and its evaluator state as stored (the JSON text, null when none). It reads
 * the text itself rather than through evaluation/'s parseEvalState: model/ sits below evaluation/, and any stored
 * state counts as evaluated, even one the evaluator would not take back (the SQL summaries in
 * server/store/alert-summary.ts read the same two flags the same way).
 */
export function stateFactsOf(status: string, evalState: string | null): StateFacts {
  const state = evalState === null ? null : safeParse(evalState);
  const memory = state && typeof state === 'object' ? (state as { queryFailing?: unknown; noData?: unknown }) : null;
  return { status, evaluated: memory !== null, queryFailing: memory?.queryFailing === true, noData: memory?.noData === true };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
