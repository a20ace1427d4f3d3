import { GlobSyntaxError, compileGraphitePattern, isBatchableTarget, type GraphiteMatcher } from './glob.js';
import { createLimiter } from './limiter.js';
import type { GraphiteFailure, RenderQuery, RenderResult, RenderSeries } from './types.js';

/** Settings of a GraphiteClient. Only baseUrl is required. */
export interface GraphiteClientOptions {
  /** Root of graphite-web (or anything speaking its render API), e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** Per request. Default 10 000 ms. */
  timeoutMs?: number;
  /** Plain/wildcard targets per request. Default 100. */
  maxTargetsPerRequest?: number;
  /** Longest request URL a batch may build. Default 7 000 characters (proxies commonly allow 8 KiB). */
  maxUrlLength?: number;
  /** Render requests in flight at once. Default 8. */
  concurrency?: number;
  /**
   * How many timed-out shared requests one render() call may split and retry. A backend that times out on
   * everything would otherwise turn each batch of 100 into ~200 slow requests; past the budget a timed-out batch
   * fails whole. Default 16.
   */
  timeoutSplitBudget?: number;
}

/** Reads many targets from the render API at once. */
export interface GraphiteClient {
  /** One result per query, in the order given. Never throws: failures are results. */
  render(queries: readonly RenderQuery[]): Promise<RenderResult[]>;
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
  const maxTargets = options.maxTargetsPerRequest ?? 100;
  const maxUrlLength = options.maxUrlLength ?? 7_000;
  const limit = createLimiter(options.concurrency ?? 8);
  const timeoutSplitBudget = options.timeoutSplitBudget ?? 16;

  const buildUrl = (targets: readonly string[], range: Range): string => {
    const params = new URLSearchParams();
    for (const target of targets) params.append('target', target);
    params.set('from', `-${range.fromMinutes}min`);
    params.set('until', 'now');
    if (range.maxDataPoints) params.set('maxDataPoints', String(range.maxDataPoints));
    params.set('format', 'json');
    return `${renderUrl.href}?${params.toString()}`;
  };

  const fetchSeries = (targets: readonly string[], range: Range): Promise<RenderSeries[]> =>
    limit(async () => {
      let response: Response;
      try {
        response = await fetch(buildUrl(targets, range), {
          headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new RenderError(describeFetchError(error, timeoutMs));
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw new RenderError(describeFetchError(error, timeoutMs));
      }
      if (!response.ok) {
        // graphite-web answers 400 for a target it cannot parse or evaluate; other statuses are backend trouble.
        const kind = response.status === 400 ? 'invalid_target' : 'http';
        throw new RenderError({ kind, status: response.status, message: `render answered HTTP ${response.status}` });
      }
      return parseRenderJson(text);
    });

  /** Fetches a group of batchable targets, splitting on failure until each failure is pinned to one target. */
  const renderGroup = async (
    targets: string[],
    range: Range,
    out: Map<string, RenderResult>,
    budget: { timeouts: number },
  ): Promise<void> => {
    try {
      const series = await fetchSeries(targets, range);
      if (targets.length === 1) {
        out.set(targets[0]!, { ok: true, series });
        return;
      }
      // Exact paths are matched by name; only wildcard patterns need their regular expression.
      const found = new Map<string, Map<string, RenderSeries>>(targets.map((target) => [target, new Map()]));
      const wildcards = targets.filter(hasWildcard).map((target) => ({ target, regex: cachedPattern(target) }));
      let slice = performance.now();
      for (const one of series) {
        found.get(one.target)?.set(one.target, one);
        for (const pattern of wildcards) if (pattern.regex.test(one.target)) found.get(pattern.target)!.set(one.target, one);
        // Matching is linear, but a big batch of long names is still work: let other requests in every few ms.
        if (performance.now() - slice > MATCH_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
      }
      for (const [target, matched] of found) out.set(target, { ok: true, series: [...matched.values()] });
    } catch (error) {
      const failure = error instanceof RenderError ? error.failure : { kind: 'http' as const, message: String(error) };
      const overBudget = failure.kind === 'timeout' && (budget.timeouts -= 1) < 0;
      if (targets.length === 1 || failure.kind === 'unreachable' || overBudget) {
        for (const target of targets) out.set(target, { ok: false, failure });
        return;
      }
      const middle = Math.ceil(targets.length / 2);
      await Promise.all([
        renderGroup(targets.slice(0, middle), range, out, budget),
        renderGroup(targets.slice(middle), range, out, budget),
      ]);
    }
  };

  /** Cuts a list of batchable targets into requests that respect the count and URL limits. */
  const cutBatches = (targets: string[], range: Range): string[][] => {
    const batches: string[][] = [];
    let current: string[] = [];
    let length = buildUrl([], range).length;
    for (const target of targets) {
      const added = `&target=${encodeURIComponent(target)}`.length;
      if (current.length > 0 && (current.length >= maxTargets || length + added > maxUrlLength)) {
        batches.push(current);
        current = [];
        length = buildUrl([], range).length;
      }
      current.push(target);
      length += added;
    }
    if (current.length > 0) batches.push(current);
    return batches;
  };

  return {
    async render(queries) {
      const byRange = new Map<string, { range: Range; batchable: Set<string>; alone: Set<string> }>();
      for (const query of queries) {
        const key = rangeKey(query);
        let group = byRange.get(key);
        if (!group) {
          const range = { fromMinutes: query.fromMinutes, ...(query.maxDataPoints ? { maxDataPoints: query.maxDataPoints } : {}) };
          byRange.set(key, (group = { range, batchable: new Set(), alone: new Set() }));
        }
        (isBatchableTarget(query.target) ? group.batchable : group.alone).add(query.target);
      }
      const results = new Map<string, Map<string, RenderResult>>();
      const work: Promise<void>[] = [];
      const budget = { timeouts: timeoutSplitBudget };
      for (const [key, { range, batchable, alone }] of byRange) {
        const out = new Map<string, RenderResult>();
        results.set(key, out);
        for (const batch of cutBatches([...batchable], range)) work.push(renderGroup(batch, range, out, budget));
        for (const target of alone) work.push(renderGroup([target], range, out, budget));
      }
      await Promise.all(work);
      return queries.map(
        (query) =>
          results.get(rangeKey(query))?.get(query.target) ?? {
            ok: false,
            failure: { kind: 'http', message: 'no result for this target' },
          },
      );
    },
    graphUrl(target, fromMinutes) {
      const params = new URLSearchParams({ target, from: `-${fromMinutes}min`, until: 'now' });
      return `${renderUrl.href}?${params.toString()}`;
    },
  };
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

/** The longest the matching of one batch's series holds the event loop before yielding, ms. */
const MATCH_SLICE_MS = 10;

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

/** Parses and checks a render JSON answer; a malformed answer is an HTTP-level failure. */
export function parseRenderJson(text: string): RenderSeries[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new RenderError({ kind: 'http', message: 'render answered something that is not JSON' });
  }
  if (!Array.isArray(data)) throw new RenderError({ kind: 'http', message: 'render answer is not a list of series' });
  for (const item of data as unknown[]) {
    const series = item as { target?: unknown; datapoints?: unknown };
    if (typeof series?.target !== 'string' || !Array.isArray(series.datapoints)) {
      throw new RenderError({ kind: 'http', message: 'render answer has a series without target or datapoints' });
    }
  }
  // The datapoints are kept as parsed (no copy: 24 h windows make millions of points); consumers treat any value
  // that is not a finite number as null and skip malformed pairs.
  return data as RenderSeries[];
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
