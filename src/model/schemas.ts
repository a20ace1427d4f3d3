import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { DURATION_PATTERN } from './duration.js';

/** The JSON Schemas in schemas/: the one source for definitions validation, server request checks and OpenAPI. */
export const SCHEMA_BASE = 'https://alertform.dev/schemas/';
export const SCHEMA_NAMES = ['alert', 'channel', 'schedule', 'maintenance-window', 'definitions', 'project', 'rule-test', 'serve-config'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** schemas/ sits at the package root, two levels above this file both in src/ and in dist/. */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

export function loadSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(`${SCHEMAS_DIR}${name}.schema.json`, 'utf8')) as Record<string, unknown>;
}

let shared: Ajv2020 | undefined;
/** Ajv itself, once loadAjv ran: not loaded where the validators come precompiled (30-40 ms of every start). */
let ajvModules: { Ajv2020: typeof Ajv2020; addFormats: (ajv: Ajv2020) => void } | undefined;

/** Loads Ajv for createAjv: done below when there are no precompiled validators, and by the build before compiling. */
export async function loadAjv(): Promise<void> {
  if (ajvModules) return;
  const [{ Ajv2020: ajvClass }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  ajvModules = { Ajv2020: ajvClass, addFormats: formats.default as unknown as (ajv: Ajv2020) => void };
}

/** A new Ajv instance with every schema registered (`code` is for the build, which writes the validators out). */
export function createAjv(code?: { source: true; esm: true }): Ajv2020 {
  if (!ajvModules) throw new Error('createAjv needs loadAjv() first');
  // strictTypes off: the criteria rules use `required` inside if/then without repeating `type`.
  const ajv = new ajvModules.Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, ...(code ? { code } : {}) });
  ajvModules.addFormats(ajv);
  for (const name of SCHEMA_NAMES) ajv.addSchema(loadSchema(name));
  return ajv;
}

/** One Ajv instance with every schema registered; compiled validators are cached by Ajv itself. */
export function getAjv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}

/** The export name of a schema's (or schema part's) validator in the precompiled module: `alert__update`. */
export function validatorExportName(name: SchemaName, def?: string): string {
  return `${name.replaceAll('-', '_')}${def ? `__${def}` : ''}`;
}

/**
 * The validators the build compiled ahead of time (scripts/compile-schemas.mjs writes dist/model/compiled-validators.js
 * with Ajv's standalone code). Building an Ajv instance and compiling the definitions schema costs 100-300 ms of
 * CPU, more than the rest of `alertform validate`; loading the precompiled code costs a tenth of that. Run from
 * src/ (tests, tsx) there is no such file, and Ajv compiles at run time: the same code, so the same errors.
 */
const precompiled: Record<string, ValidateFunction> | undefined = await import(new URL('./compiled-validators.js', import.meta.url).href).catch(
  (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  },
);
// Run from src/ (tests, tsx): no precompiled validators, so Ajv compiles them at run time.
if (!precompiled) await loadAjv();

/** A validator for `schema.json` or `schema.json#/$defs/part`, e.g. `validatorFor('alert', 'update')`. */
export function validatorFor(name: SchemaName, def?: string): ValidateFunction {
  const compiled = precompiled?.[validatorExportName(name, def)];
  if (compiled) return compiled;
  const ref = `${SCHEMA_BASE}${name}.schema.json${def ? `#/$defs/${def}` : ''}`;
  const validate = getAjv().getSchema(ref);
  if (!validate) throw new Error(`no schema ${ref}`);
  return validate;
}

/** A problem in an input, located by a dot path such as `alert_criteria.above_value` or `alerts.0.name`. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** Turns a JSON pointer (`/alerts/0/name`) into a dot path (`alerts.0.name`). */
export function pointerToPath(pointer: string): string {
  // The common case without escapes in one cheap step: this runs once per error, and a body may have 100,000.
  if (!pointer.includes('~')) return pointer.slice(1).replaceAll('/', '.');
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function joinPath(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/**
 * Ajv's errors as plain field problems: one per real cause, naming the field. Drops the bookkeeping errors
 * (`if`, and an `anyOf` whose branches already explain themselves) and says unknown fields by name.
 */
export function describeAjvErrors(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  const add = (path: string, message: string) => {
    const key = `${path}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push({ path, message });
    }
  };
  const all = errors ?? [];
  // One pass to index the anyOf branches, so that each error is judged in time linear in its own schema path,
  // never by scanning every other error (a body of 100,000 bad items made that quadratic: seconds of event loop).
  const anyOfRoots = new Set<string>();
  for (const error of all) if (error.keyword === 'anyOf') anyOfRoots.add(branchRoot(error));
  const underBranch = new Map<string, ErrorObject[]>();
  for (const error of all) {
    for (const root of enclosingBranchRoots(error.schemaPath, anyOfRoots)) {
      const list = underBranch.get(root);
      if (list) list.push(error);
      else underBranch.set(root, [error]);
    }
  }
  for (const error of all) {
    const at = pointerToPath(error.instancePath);
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'if':
        break;
      case 'additionalProperties':
        add(joinPath(at, String(params.additionalProperty)), `unknown field "${String(params.additionalProperty)}"`);
        break;
      case 'required':
        add(joinPath(at, String(params.missingProperty)), 'is required');
        break;
      case 'enum':
        add(at, `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      case 'propertyNames':
        add(joinPath(at, String(params.propertyName)), 'is not an allowed key');
        break;
      case 'anyOf': {
        // Say it once, plainly, instead of every branch's complaint.
        for (const e of underBranch.get(branchRoot(error)) ?? []) {
          if (e !== error) seen.add(`${pointerToPath(e.instancePath)}\u0000${e.message ?? ''}`);
        }
        add(at, describeAnyOf(at));
        break;
      }
      default:
        if (error.schemaPath.includes('/anyOf/') && enclosingBranchRoots(error.schemaPath, anyOfRoots).length > 0) break;
        add(at, inWords(error) ?? error.message ?? 'is invalid');
    }
  }
  return problems;
}

/** What each pattern of schemas/ asks for, in words: a person reads `must look like 02:00`, not the expression. */
export const PATTERN_WORDS: Record<string, string> = {
  [DURATION_PATTERN.source]: 'must be a duration such as 90s, 15m, 2h or 1h30m',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': 'must look like 02:00 (a time of day, HH:MM, 24 h)',
  '^UTC([+]((0?[0-9]|1[0-3])(:[0-5][0-9])?|14(:00)?)|-((0?[0-9]|1[01])(:[0-5][0-9])?|12(:00)?))?$':
    'must be UTC or an offset from UTC+14 to UTC-12, such as UTC+2 or UTC-5:30',
  '^[b-zB-Z]$': 'must be one letter from b to z',
  '^[A-Za-z()&|\\s]+$': 'must use only criterion letters, &, |, ( and )',
  '\\S': 'must not be blank',
  '^[0-9]+$': 'must be a whole number',
  '^[0-9]{1,5}$': 'must be a whole number',
  '^https?://[^/]': 'must be an http:// or https:// URL',
  '^smtps?://[^/]': 'must be an smtp:// or smtps:// URL',
  '^(\\[[0-9A-Fa-f:.]+\\]:|[A-Za-z0-9.-]*:)?[0-9]{1,5}$': 'must be HOST:PORT or a port, such as 127.0.0.1:2003, [::1]:2004 or 2003',
};

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping (key: value)',
  null: 'null',
};

/** Ajv's terse messages (`must be >= 1`, `must NOT have more than 10 items`) said plainly; undefined: keep Ajv's. */
function inWords(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  const plural = (n: unknown, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;
  switch (error.keyword) {
    case 'pattern':
      return PATTERN_WORDS[String(params.pattern)] ?? 'is not in the expected form';
    case 'format':
      return params.format === 'date-time'
        ? 'must be an ISO 8601 time with its offset from UTC, e.g. 2026-12-24T22:00:00+01:00 or ...Z'
        : `must be a valid ${String(params.format)}`;
    case 'type': {
      const types = (Array.isArray(params.type) ? params.type : String(params.type).split(',')) as string[];
      return `must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}`;
    }
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${plural(params.limit, 'character')}`;
    case 'maxLength':
      return `must be at most ${plural(params.limit, 'character')}`;
    case 'minItems':
      return `must have at least ${plural(params.limit, 'item')}`;
    case 'maxItems':
      return `must have at most ${plural(params.limit, 'item')}`;
    case 'minProperties':
      return params.limit === 1 ? 'must not be empty' : `must have at least ${plural(params.limit, 'key')}`;
    case 'uniqueItems':
      return `must not repeat an item (items ${String(params.j)} and ${String(params.i)} are the same)`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return undefined;
  }
}

/** `#/x/anyOf/` for an anyOf error at `#/x/anyOf`: the prefix of the schema paths of its branches' errors. */
function branchRoot(anyOfError: ErrorObject): string {
  return anyOfError.schemaPath.replace(/\/anyOf$/, '/anyOf/');
}

/** The anyOf branch roots (among `roots`) that a schema path lies under. */
function enclosingBranchRoots(schemaPath: string, roots: Set<string>): string[] {
  const found: string[] = [];
  for (let i = schemaPath.indexOf('/anyOf/'); i !== -1; i = schemaPath.indexOf('/anyOf/', i + 1)) {
    const root = schemaPath.slice(0, i + '/anyOf/'.length);
    if (roots.has(root)) found.push(root);
  }
  return found;
}

function describeAnyOf(path: string): string {
  const field = path.split('.').pop() ?? '';
  switch (field) {
    case 'notification_type':
      return 'must be "state_change", ["state_change"] or ["every", <minutes>]';
    case 'time_period':
      return 'must be a positive whole number of minutes';
    case 'muted':
      return 'must be false or {until: <ISO 8601 time>}';
    case 'prune':
      return 'must be false or {match: [globs], max_deletes: N}';
    case 'duration':
      return 'must be whole minutes from 1m to a year: 90 (minutes), 2h, 1h30m, 1d';
    default:
      return 'has an invalid value';
  }
}
