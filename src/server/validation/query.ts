import type { FieldProblem } from '../../model/schemas.js';
import { invalidQuery } from '../errors.js';

/** What a search endpoint accepts: parameter names, each repeatable or not, and aliases. */
export interface QuerySpec {
  repeatable?: readonly string[];
  single?: readonly string[];
  /** alias -> canonical name (e.g. descriptions -> description). */
  aliases?: Readonly<Record<string, string>>;
}

/** Query parameters read strictly: unknown names and repeated single parameters are problems. */
export class QueryReader {
  readonly problems: FieldProblem[] = [];
  private readonly values = new Map<string, string[]>();

  constructor(querystring: string, spec: QuerySpec) {
    const repeatable = new Set(spec.repeatable ?? []);
    const single = new Set(spec.single ?? []);
    for (const [rawName, value] of new URLSearchParams(querystring)) {
      const name = spec.aliases?.[rawName] ?? rawName;
      if (!repeatable.has(name) && !single.has(name)) {
        this.problems.push({ path: rawName, message: 'unknown query parameter' });
        continue;
      }
      const list = this.values.get(name) ?? [];
      list.push(value);
      this.values.set(name, list);
      if (single.has(name) && list.length === 2) this.problems.push({ path: rawName, message: 'may be given only once' });
    }
  }

  /** Every value of a repeatable parameter; empty values (as in `?name=`) are ignored. */
  list(name: string): string[] {
    return (this.values.get(name) ?? []).filter((value) => value !== '');
  }

  /** The value of a single parameter; null when absent or empty. */
  text(name: string): string | null {
    const value = this.values.get(name)?.[0];
    return value === undefined || value === '' ? null : value;
  }

  /** A whole number within [min, max]; `fallback` when absent. */
  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.text(name);
    if (value === null) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push({ path: name, message: `must be a whole number from ${min} to ${max}` });
      return fallback;
    }
    return Number(value);
  }

  /** A finite number; null when absent. */
  number(name: string): number | null {
    const value = this.text(name);
    if (value === null) return null;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || value.trim() === '') {
      this.problems.push({ path: name, message: 'must be a number' });
      return null;
    }
    return parsed;
  }

  /** true/false in any case (Python clients send `True`/`False`), or 1/0; null when absent. */
  boolean(name: string): boolean | null {
    const value = this.text(name)?.toLowerCase() ?? null;
    if (value === null) return null;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    this.problems.push({ path: name, message: 'must be true or false' });
    return null;
  }

  /** One of the allowed values; null when absent. */
  oneOf(name: string, allowed: readonly string[]): string | null {
    const value = this.text(name);
    if (value === null) return null;
    if (!allowed.includes(value)) {
      this.problems.push({ path: name, message: `must be one of ${allowed.join(', ')}` });
      return null;
    }
    return value;
  }

  /** Throws the 400 invalid_query of every problem found so far. */
  assertValid(): void {
    if (this.problems.length > 0) throw invalidQuery(this.problems);
  }
}

/** page and max as both searches take them: page >= 1 (default 1), max 1..100 (default 100). */
export function readPaging(query: QueryReader): { page: number; max: number } {
  return { page: query.integer('page', 1, 1, 1_000_000_000), max: query.integer('max', 100, 1, 100) };
}
