import { GlobSyntaxError, compileGraphitePattern, isBatchableTarget, type GraphiteMatcher } from '../model/graphite-target/glob.js';
import { createAgent, postForm, type BodyAnswer } from './http-post.js';
import { RenderAnswerError } from './render-json.js';
import { parseRenderAnswerInSlices } from './render-json-slices.js';
import { createLimiter } from './request-limiter.js';
import { MATCH_LIMITS, addMatch, createMatchBudget, matchWildcards, type MatchBudget, type Matches } from './match-batch.js';
import { renderForm, targetFieldBytes } from './render-query.js';
import type { GraphiteFailure, RenderQuery, RenderResult, RenderSeries } from './types.js';

export { PackedSeries, parseRenderJson } from './render-json.js';

/**
 * Plain/wildcard targets per request when the options do not say (the evaluator cuts its pages' queries to it).
 * Chosen by measurement (docs/benchmarks.md, "Render requests as POST bodies"): each request costs the client about
 * 0.4 ms of CPU here (most of it the loopback write waking the endpoint), so 200 targets a request instead of 100
 * take 1.5-3 µs per alert off a cycle; larger batches save a little more CPU, but shorten the bare requests so much
 * that a cycle of 30,000-100,000 alerts on three replicas, CPU-bound on two cores, passes 1.5x of them.
 */
export const DEFAULT_TARGETS_PER_REQUEST = 200;

/** The most targets a request carries: with from, until, maxDataPoints and format, under graphite-web's 1,000 fields. */
export const MAX_TARGETS_PER_REQUEST = 995;

/** Settings of a GraphiteClient. Only baseUrl is required. */
export interface GraphiteClientOptions {
  /** Root of graphite-web (or anything speaking its render API), e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** Per request. Default 10 000 ms. */
  timeoutMs?: number;
  /** Plain/wildcard targets per request. Default DEFAULT_TARGETS_PER_REQUEST; at most MAX_TARGETS_PER_REQUEST. */
  maxTargetsPerRequest?: number;
  /**
   * Largest form body a batch may build, in bytes. Default 100 000: well under graphite-web's (Django's) 2.5 MB and
   * common proxies' 1 MiB request bodies.
   */
  maxBodyBytes?: number;
  /** Render requests in flight at once. Default 8. */
  concurrency?: number;
  /**
   * How many timed-out shared requests one render() call may split and retry. A backend that times out on
   * everything would otherwise turn each batch of 200 into ~400 slow requests; past the budget a timed-out batch
   * fails whole. Default 16.
   */
  timeoutSplitBudget?: number;
}

/** Reads many targets from the render API at once. */
export interface GraphiteClient {
  /** One result per query, in the order given. Never throws: failures are results. */
  render(queries: readonly RenderQuery[]): Promise<RenderResult[]>;
  /**
   * The same, told as the answers arrive: `onResult(index, result)` once per query (`index` into `queries`),
   * while other requests are still in flight. The caller can use and drop each result at once instead of holding
   * all of them (a cycle of 100,000 alerts would otherwise keep every series alive until the last answer).
   * Calls given the same `cycle` object (an evaluation cycle asking page by page) share one budget of timeout splits
   * and matching time, as one call would.
   */
  renderEach(queries: readonly RenderQuery[], onResult: (index: number, result: RenderResult) => void, cycle?: object): Promise<void>;
  /** A graph URL of a target for people to open (no credentials in it). */
  graphUrl(target: string, fromMinutes: number): string;
}

class RenderError extends Error {
  constructor(readonly failure: GraphiteFailure) {
    super(failure.message);
  }
}

/**
 * A client of the Graphite render API. Plain paths and wildcards over the same time range share requests (their
 * series come back named by path and are matched to their pattern); function queries go alone. When a shared
 * request fails, its targets are split in halves and retried, down to single targets, so one bad target fails
 * only its own alerts. An unreachable backend fails the whole batch at once: splitting would not help.
 */
export function createGraphiteClient(options: GraphiteClientOptions): GraphiteClient {
  const base = new URL(options.baseUrl);
  const renderUrl = new URL('render', base.href.endsWith('/') ? base.href : `${base.href}/`);
  const authorization =
    base.username || base.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`).toString('base64')}`
      : undefined;
  renderUrl.username = '';
  renderUrl.password = '';
  const timeoutMs = options.timeoutMs ?? 10_000;
  // graphite-web (Django's DATA_UPLOAD_MAX_NUMBER_FIELDS) answers 400 to a request of more than 1,000 fields.
  const maxTargets = Math.min(options.maxTargetsPerRequest ?? DEFAULT_TARGETS_PER_REQUEST, MAX_TARGETS_PER_REQUEST);
  const maxBodyBytes = options.maxBodyBytes ?? 100_000;
  const limit = createLimiter(options.concurrency ?? 8);
  const timeoutSplitBudget = options.timeoutSplitBudget ?? 16;

  /*
   * POST /render with the targets and range as a form body, as Grafana's Graphite data source sends them:
   * graphite-web reads the query string and the form fields alike (render/views.py parseOptions), and a body has
   * no URL length limit (gunicorn's request line stops at 4,094 bytes, proxies' at about 8 KiB), so a request can
   * carry a few hundred targets. The targets stay out of URLs, and so out of access logs.
   */
  const url = renderUrl.href;
  const agent = createAgent(renderUrl, options.concurrency ?? 8);
  const headers = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
    ...(authorization ? { authorization } : {}),
  };
  /** One request, once the limiter lets it go (a function made once, not per request: see `deliver` below). */
  const requestSeries = async (targets: readonly string[], range: Range): Promise<RenderSeries[]> => {
    let answer: BodyAnswer;
    try {
      answer = await postForm(url, renderForm(targets, range), { agent, headers, timeoutMs });
    } catch (error) {
      throw new RenderError(describeFetchError(error, timeoutMs));
    }
    if (answer.status < 200 || answer.status > 299) {
      // graphite-web answers 400 for a target it cannot parse or evaluate; other statuses are backend trouble.
      const kind = answer.status === 400 ? 'invalid_target' : 'http';
      throw new RenderError({ kind, status: answer.status, message: `render answered HTTP ${answer.status}` });
    }
    try {
      // A large answer (a backtest's week of a wildcard) is read in slices, so other requests are not held meanwhile.
      return await parseRenderAnswerInSlices(answer.body);
    } catch (error) {
      // A malformed answer is an HTTP-level failure.
      if (error instanceof RenderAnswerError) throw new RenderError({ kind: 'http', message: error.message });
      throw error;
    }
  };
  const fetchSeries = (targets: readonly string[], range: Range): Promise<RenderSeries[]> => limit(() => requestSeries(targets, range));

  /** Fetches a group of batchable targets, splitting on failure until each failure is pinned to one target. */
  const renderGroup = async (targets: string[], range: Range, delivery: Delivery, budget: { timeouts: number; matching: MatchBudget }): Promise<void> => {
    try {
      const series = await fetchSeries(targets, range);
      if (targets.length === 1) {
        deliver(delivery, targets[0]!, { ok: true, series });
        return;
      }
      // Exact paths are matched by name; only wildcard patterns need their regular expression. A series is kept
      // once per target even when the answer repeats it (the last one, in the first one's place).
      const matches: Matches = { found: new Map(), positions: new Map() };
      for (const target of targets) matches.found.set(target, null);
      const wildcards = targets.filter(hasWildcard).map((target) => ({ target, matcher: cachedPattern(target) }));
      for (const one of series) if (matches.found.has(one.target)) addMatch(matches, one.target, one);
      if (!(await matchWildcards(series, wildcards, (target, one) => addMatch(matches, target, one), budget.matching))) {
        // Too long a name or too much matching: Graphite expands each wildcard alone, nothing to match here.
        for (const { target } of wildcards) matches.found.delete(target);
        await Promise.all(wildcards.map(({ target }) => renderGroup([target], range, delivery, budget)));
      }
      for (const [target, matched] of matches.found) deliver(delivery, target, { ok: true, series: matched ?? [] });
    } catch (error) {
      const failure = error instanceof RenderError ? error.failure : { kind: 'http' as const, message: String(error) };
      const overBudget = failure.kind === 'timeout' && (budget.timeouts -= 1) < 0;
      if (targets.length === 1 || failure.kind === 'unreachable' || overBudget) {
        for (const target of targets) deliver(delivery, target, { ok: false, failure });
        return;
      }
      const middle = Math.ceil(targets.length / 2);
      await Promise.all([
        renderGroup(targets.slice(0, middle), range, delivery, budget),
        renderGroup(targets.slice(middle), range, delivery, budget),
      ]);
    }
  };

  /** Cuts a list of batchable targets into requests that respect the count and body size limits. */
  const cutBatches = (targets: string[], range: Range): string[][] => {
    const batches: string[][] = [];
    let current: string[] = [];
    const empty = renderForm([], range).length;
    let length = empty;
    for (const target of targets) {
      const added = targetFieldBytes(target);
      if (current.length > 0 && (current.length >= maxTargets || length + added > maxBodyBytes)) {
        batches.push(current);
        current = [];
        length = empty;
      }
      current.push(target);
      length += added;
    }
    if (current.length > 0) batches.push(current);
    return batches;
  };

  // Calls given the same `cycle` object (a cycle rendering page by page) share one cycle's budgets.
  const cycleBudgets = new WeakMap<object, { timeouts: number; matching: MatchBudget }>();
  const renderEach: GraphiteClient['renderEach'] = async (queries, onResult, cycle) => {
    // Distinct queries by range, then by target; each remembers which of `queries` asked it (an index, or several).
    const byRange = new Map<string, { range: Range; batchable: string[]; alone: string[]; asked: Map<string, number | number[]> }>();
    for (let index = 0; index < queries.length; index += 1) {
      const query = queries[index]!;
      const key = rangeKey(query);
      let group = byRange.get(key);
      if (!group) {
        // Both keys always (one shape): a shape made by spreading lived only while its objects did, and code
        // optimized for it was thrown away at each full collection between cycles.
        const range: Range = { fromMinutes: query.fromMinutes, maxDataPoints: query.maxDataPoints || undefined };
        byRange.set(key, (group = { range, batchable: [], alone: [], asked: new Map() }));
      }
      const asking = group.asked.get(query.target);
      if (asking === undefined) {
        group.asked.set(query.target, index);
        (isBatchable(query.target) ? group.batchable : group.alone).push(query.target);
      } else if (typeof asking === 'number') group.asked.set(query.target, [asking, index]);
      else asking.push(index);
    }
    const work: Promise<void>[] = [];
    const budget = (cycle && cycleBudgets.get(cycle)) || { timeouts: timeoutSplitBudget, matching: createMatchBudget() };
    if (cycle) cycleBudgets.set(cycle, budget);
    for (const { range, batchable, alone, asked } of byRange.values()) {
      const delivery: Delivery = { asked, onResult };
      for (const batch of cutBatches(batchable, range)) work.push(renderGroup(batch, range, delivery, budget));
      for (const target of alone) work.push(renderGroup([target], range, delivery, budget));
    }
    await Promise.all(work);
    for (const { asked } of byRange.values()) {
      for (const indexes of asked.values()) {
        for (const index of typeof indexes === 'number' ? [indexes] : indexes) {
          onResult(index, { ok: false, failure: { kind: 'http', message: 'no result for this target' } });
        }
      }
    }
  };

  return {
    renderEach,
    async render(queries) {
      const results = new Array<RenderResult>(queries.length);
      await renderEach(queries, (index, result) => {
        results[index] = result;
      });
      return results;
    },
    graphUrl(target, fromMinutes) {
      const params = new URLSearchParams({ target, from: `-${fromMinutes}min`, until: 'now' });
      return `${renderUrl.href}?${params.toString()}`;
    },
  };
}

/*
 * The per-series work below is in functions made once, not in closures made per call: optimized code of a closure
 * lives only as long as some closure of its kind does, so closures made per cycle were compiled again every cycle
 * after the full collection between two cycles.
 */

/** Where the results of one time range go: the indexes of the queries that asked each target, and the caller. */
interface Delivery {
  asked: Map<string, number | number[]>;
  onResult: (index: number, result: RenderResult) => void;
}

/** Tells the result of `target` to every query that asked it, once (a later, duplicate delivery finds it gone). */
function deliver(delivery: Delivery, target: string, result: RenderResult): void {
  const indexes = delivery.asked.get(target);
  if (indexes === undefined) return;
  delivery.asked.delete(target);
  if (typeof indexes === 'number') delivery.onResult(indexes, result);
  else for (const index of indexes) delivery.onResult(index, result);
}

/** The time range (and resolution cap) a request covers; only queries with the same range share requests. */
type Range = Pick<RenderQuery, 'fromMinutes' | 'maxDataPoints'>;

function rangeKey(query: Range): string {
  return `${query.fromMinutes}/${query.maxDataPoints ?? ''}`;
}

const WILDCARD = /[*?[{]/;

function hasWildcard(target: string): boolean {
  return WILDCARD.test(target);
}

/** Batched: plain paths, and wildcards short enough to match back here cheaply (longer ones Graphite expands alone). */
function isBatchable(target: string): boolean {
  return isBatchableTarget(target) && (target.length <= MATCH_LIMITS.maxPatternLength || !hasWildcard(target));
}

const compiled = new Map<string, GraphiteMatcher>();

/** Compiled patterns, kept across cycles (the same alerts ask the same queries every cycle). */
function cachedPattern(target: string): GraphiteMatcher {
  let matcher = compiled.get(target);
  if (!matcher) {
    if (compiled.size > 50_000) compiled.clear();
    matcher = compilePatternOrLiteral(target);
    compiled.set(target, matcher);
  }
  return matcher;
}

/** A malformed pattern (stored before patterns were checked at create time) matches only its own text. */
function compilePatternOrLiteral(target: string): GraphiteMatcher {
  try {
    return compileGraphitePattern(target);
  } catch (error) {
    if (!(error instanceof GlobSyntaxError)) throw error;
    return { test: (name) => name === target };
  }
}

function describeFetchError(error: unknown, timeoutMs: number): GraphiteFailure {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return { kind: 'timeout', message: `render did not answer within ${timeoutMs} ms` };
  }
  // Only the error code: the message of a network error names the host and port.
  const code = (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return { kind: 'unreachable', message: `render request failed${code ? ` (${code})` : ''}` };
}
