import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The JSON Schemas in schemas/: the one source for definitions validation, server request checks and OpenAPI. */
export const SCHEMA_BASE = 'https://alertform.dev/schemas/';
export const SCHEMA_NAMES = ['alert', 'channel', 'schedule', 'definitions', 'project', 'rule-test'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** schemas/ sits at the package root, two levels above this file both in src/ and in dist/. */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

export function loadSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(`${SCHEMAS_DIR}${name}.schema.json`, 'utf8')) as Record<string, unknown>;
}

let shared: Ajv2020 | undefined;

/** One Ajv instance with every schema registered; compiled validators are cached by Ajv itself. */
export function getAjv(): Ajv2020 {
  if (!shared) {
    // strictTypes off: the criteria rules use `required` inside if/then without repeating `type`.
    shared = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    (addFormats as unknown as (ajv: Ajv2020) => void)(shared);
    for (const name of SCHEMA_NAMES) shared.addSchema(loadSchema(name));
  }
  return shared;
}

/** A validator for `schema.json` or `schema.json#/$defs/part`, e.g. `validatorFor('alert', 'update')`. */
export function validatorFor(name: SchemaName, def?: string): ValidateFunction {
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
        const branchErrors = all.filter(
          (e) => e !== error && e.schemaPath.startsWith(error.schemaPath.replace(/\/anyOf$/, '/anyOf/')),
        );
        for (const e of branchErrors) seen.add(`${pointerToPath(e.instancePath)}\u0000${e.message ?? ''}`);
        add(at, describeAnyOf(at));
        break;
      }
      default:
        if (all.some((e) => e.keyword === 'anyOf' && error.schemaPath.includes('/anyOf/') && sameBranchRoot(e, error))) {
          break;
        }
        add(at, error.message ?? 'is invalid');
    }
  }
  return problems;
}

function sameBranchRoot(anyOfError: ErrorObject, inner: ErrorObject): boolean {
  return inner.schemaPath.startsWith(anyOfError.schemaPath.replace(/\/anyOf$/, '/anyOf/'));
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
    default:
      return 'has an invalid value';
  }
}
