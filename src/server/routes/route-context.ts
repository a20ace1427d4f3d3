import type { Context } from 'koa';
import type { FieldProblem, SchemaName } from '../../model/schemas.js';
import type { AuthState } from '../http/authenticate.js';
import { readJsonBody } from '../http/read-json-body.js';
import { invalidBody } from '../errors.js';
import type { Store } from '../store/store.js';
import type { AlertReads } from '../http/alert-read-cache.js';
import type { DestinationPolicy } from '../net/destination-policy.js';
import type { Quotas } from '../quotas.js';
import type { GraphiteClient } from '../../graphite/index.js';
import { checkSchema } from '../validation/check-schema.js';
import type { AckChangeLimiter } from '../http/ack-change-limiter.js';
import type { EvaluationHealth } from '../evaluator/evaluation-health.js';

/**
 * What every route module gets: the store and the clock (tests move the clock to expire mutes). A route module names
 * the store's concerns it uses (`RouteDeps<'alerts' | 'history'>`): it is given the whole store, and may use only those.
 */
export interface RouteDeps<C extends keyof Store = keyof Store> {
  store: Pick<Store, C>;
  now: () => number;
  /** Where channel destinations may lead (literal addresses are judged at create time). */
  destinations: DestinationPolicy;
  /** What one account may hold. */
  quotas: Quotas;
  /** The server's render client (the evaluator's settings) for the console's graphs; null without a Graphite. */
  graphite: GraphiteClient | null;
  /** The API's reads of alerts, through the read cache (http/alert-read-cache.ts); the store itself when absent. */
  alertReads?: AlertReads;
  /** Counts each alert's acknowledgement changes (429 beyond MAX_ACK_CHANGES); none: not limited. */
  ackChanges?: AckChangeLimiter;
  /** Whether anything evaluates this server's alerts now (their `state`: evaluator/evaluation-health.ts). */
  evaluation: Pick<EvaluationHealth, 'evaluating' | 'evaluatingKnown'> & { evaluatedBy?: EvaluationHealth['evaluatedBy'] };
  /** The backtest's render client (plan --impact's settings: longer timeouts, smaller batches); null without a Graphite. */
  backtestGraphite: GraphiteClient | null;
  /** The server's settle delay (seconds), for alerts whose settle_seconds is null. */
  settleSeconds: number;
}

/** The account of an authenticated request. */
export function accountOf(ctx: Context): string {
  return (ctx.state as AuthState).account.id;
}

/** The metric prefixes the request's account is confined to (empty: not confined). */
export function prefixesOf(ctx: Context): readonly string[] {
  return (ctx.state as AuthState).account.metricPrefixes ?? [];
}

/** A path parameter; the router always sets the ones its pattern names. */
export function param(ctx: Context, name: string): string {
  return (ctx as Context & { params: Record<string, string> }).params[name]!;
}

/**
 * Reads the body and checks it against a schema part; on problems throws 400 invalid_body (or `status`, where
 * the seed documents another status for an invalid body).
 */
export async function readValidBody<T>(ctx: Context, schema: SchemaName, def: string, status?: number): Promise<T> {
  const body = await readJsonBody(ctx.req);
  const problems = checkSchema(schema, def, body);
  if (problems.length > 0) throw invalidBody(problems, status);
  return body as T;
}

/** Throws the invalid_body error of rule problems. */
export function assertNoProblems(problems: FieldProblem[], status?: number): void {
  if (problems.length > 0) throw invalidBody(problems, status);
}
