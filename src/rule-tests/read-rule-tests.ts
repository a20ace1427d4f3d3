import { isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { durationMs } from '../model/duration.js';
import { describeAjvErrors, validatorFor } from '../model/schemas.js';
import type { Problem, SourceLocation } from '../definitions/problems.js';
import { findFiles } from '../definitions/load.js';
import { isRuleTestFile } from '../definitions/file-rules.js';
import { NotationError, parseSeriesValues } from './series-notation.js';
import { checkSeriesPath } from './series-path.js';

/** The default start of a test: a Monday at midnight UTC, so week days of scheduled mutes read naturally. */
export const DEFAULT_TEST_START = '2026-01-05T00:00:00Z';

/** One input series, expanded. */
export interface TestSeries {
  name: string;
  values: (number | null)[];
}

/** One expectation: the status (and maybe the triggered series) at `at` seconds from the start. */
export interface TestExpectation {
  at: number;
  atText: string;
  status: 'healthy' | 'alerting';
  triggered?: string[];
  location: SourceLocation;
}

/** One test case of a `*.test.yaml`, read and checked. */
export interface RuleTestCase {
  name: string;
  alert: string;
  location: SourceLocation;
  alertLocation: SourceLocation;
  /** Seconds between input points. */
  interval: number;
  /** Unix seconds of the first point. */
  start: number;
  /** Seconds to evaluate; undefined: to the last point or expectation. */
  duration?: number;
  series: TestSeries[];
  expect: TestExpectation[];
  notifications?: Record<string, number>;
  notificationsLocation?: SourceLocation;
}

/** `0m`, `90s`, `15m`, `2h`, `1d`, `1w` as seconds, in the one duration grammar (zero allowed: an offset, not a length). */
export function parseOffset(text: string): number {
  const ms = durationMs(text, { allowZero: true });
  if (ms === undefined) throw new Error(`"${text}" is not a time: write e.g. 0m, 90s, 15m, 2h`);
  return Math.round(ms / 1_000);
}

/** Every `*.test.yaml` / `*.test.yml` under `dir`, skipping the directories definitions skip (file-rules.ts), sorted. */
export async function findRuleTestFiles(dir: string): Promise<string[]> {
  return findFiles(dir, isRuleTestFile);
}

/**
 * Reads one test file: YAML, the rule-test schema, then each case's times and series notation. Every problem is
 * collected with its file:line:column; a case with a problem is left out, the others still run.
 */
export function readRuleTestFile(path: string, text: string): { cases: RuleTestCase[]; problems: Problem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number): SourceLocation => {
    const pos = lineCounter.linePos(offset);
    return { file: path, line: pos.line, column: pos.col };
  };
  const locate = (dotted: string): SourceLocation => locateIn(doc, dotted, at) ?? { file: path, line: 1, column: 1 };
  if (doc.errors.length > 0) {
    return { cases: [], problems: doc.errors.map((e) => ({ location: at(e.pos[0]), path: '', message: e.message.split('\n')[0]! })) };
  }
  const value = doc.toJS() as unknown;
  const validate = validatorFor('rule-test');
  if (!validate(value)) {
    return { cases: [], problems: describeAjvErrors(validate.errors).map((p) => ({ location: locate(p.path), path: p.path, message: p.message })) };
  }
  const problems: Problem[] = [];
  const cases: RuleTestCase[] = [];
  const tests = (value as { tests: Record<string, unknown>[] }).tests;
  tests.forEach((raw, index) => {
    const prefix = `tests.${index}`;
    const before = problems.length;
    const time = (field: string, text: unknown): number => {
      try {
        return parseOffset(String(text));
      } catch (error) {
        problems.push({ location: locate(`${prefix}.${field}`), path: `${prefix}.${field}`, message: (error as Error).message });
        return 0;
      }
    };
    const interval = raw.interval === undefined ? 60 : time('interval', raw.interval);
    if (raw.interval !== undefined && interval === 0) problems.push({ location: locate(`${prefix}.interval`), path: `${prefix}.interval`, message: 'the interval must be longer than 0' });
    const start = Date.parse(String(raw.start ?? DEFAULT_TEST_START)) / 1000;
    const series = (raw.input_series as { series: string; values: string | number }[]).map((one, i) => {
      const problem = checkSeriesPath(one.series);
      if (problem) {
        const at = `${prefix}.input_series.${i}.series`;
        problems.push({ location: locate(at), path: at, message: problem });
      }
      const path = `${prefix}.input_series.${i}.values`;
      try {
        return { name: one.series, values: parseSeriesValues(String(one.values)) };
      } catch (error) {
        const column = error instanceof NotationError ? error.column : 0;
        problems.push({ location: locateColumn(doc, path, column, at) ?? locate(path), path, message: (error as Error).message });
        return { name: one.series, values: [] };
      }
    });
    const expectations = ((raw.expect as { at: string; status: 'healthy' | 'alerting'; triggered?: string[] }[] | undefined) ?? []).map((e, i) => ({
      at: time(`expect.${i}.at`, e.at),
      atText: e.at,
      status: e.status,
      ...(e.triggered ? { triggered: e.triggered } : {}),
      location: locate(`${prefix}.expect.${i}`),
    }));
    if (problems.length > before) return;
    cases.push({
      name: String(raw.name ?? raw.alert),
      alert: String(raw.alert),
      location: locate(prefix),
      alertLocation: locate(`${prefix}.alert`),
      interval,
      start,
      ...(raw.duration !== undefined ? { duration: time('duration', raw.duration) } : {}),
      series,
      expect: expectations,
      ...(raw.notifications ? { notifications: raw.notifications as Record<string, number>, notificationsLocation: locate(`${prefix}.notifications`) } : {}),
    });
  });
  return { cases, problems };
}

function locateIn(doc: Document, dotted: string, at: (offset: number) => SourceLocation): SourceLocation | undefined {
  const parts = dotted ? dotted.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  for (let n = parts.length; n >= 0; n -= 1) {
    const node = doc.getIn(parts.slice(0, n), true);
    if (isNode(node) && node.range) return at(node.range[0]);
  }
  return undefined;
}

/** The place of a column inside a one-line scalar (after its opening quote), for notation errors. */
function locateColumn(doc: Document, dotted: string, column: number, at: (offset: number) => SourceLocation): SourceLocation | undefined {
  const node = doc.getIn(dotted.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), true);
  if (!isScalar(node) || !node.range) return undefined;
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
  if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') return at(node.range[0]);
  return at(node.range[0] + quoted + column);
}
