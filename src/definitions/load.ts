import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describeAjvErrors, validatorFor, type FieldProblem, type SchemaName } from '../model/schemas.js';
import { checkWindowRules, type WindowWithDuration } from '../model/window-rules.js';
import { interpolateString } from './interpolate.js';
import { emptyDefinitions, type Definitions, type Defined, type EscalationPolicyDefinition, type ResourceKind } from './definitions.js';
import type { Problem } from './problems.js';
import { sortProblems } from './problems.js';
import { checkDefinitionsSteps } from './rules.js';
import { runInSlices, runToEnd, type Steps } from './slices.js';
import { parseYamlFile, type SourceFile } from './yaml-source.js';
import { isDefinitionFile, isSkippedDir } from './file-rules.js';
import { mayHoldAlias } from './alias-expansion.js';
import { DefinedItem } from './defined-item.js';

export type { SourceFile } from './yaml-source.js';

export interface LoadResult {
  definitions: Definitions;
  /** Every problem found, sorted by place; empty when the definitions are valid. */
  problems: Problem[];
  files: string[];
}

export interface LoadOptions {
  /** Where `${VAR}` values come from (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

export { PROJECT_FILE, TEST_FILE } from './file-rules.js';

/**
 * Lists `*.yaml`/`*.yml` files under `dir` at any depth, skipping dot-directories (.git, .github), node_modules,
 * workflows/, the root's alertform.yaml and rule tests (`*.test.yaml`): the rules of file-rules.ts.
 */
export async function listDefinitionFiles(dir: string): Promise<string[]> {
  return findFiles(dir, isDefinitionFile);
}

/**
 * Files under `dir` at any depth, in name order, whose path relative to `dir` (`/`-separated) `keep` accepts;
 * directories that file-rules.ts skips are never entered. One walk for definitions and rule tests.
 */
export async function findFiles(dir: string, keep: (relativePath: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string, prefix: string) => {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!isSkippedDir(entry.name)) await walk(full, `${prefix}${entry.name}/`);
      } else if (keep(`${prefix}${entry.name}`)) {
        found.push(full);
      }
    }
  };
  await walk(dir, '');
  return found;
}

/**
 * Loads every definitions file of a directory; file names are reported relative to the working directory. The work
 * is done in slices (see slices.ts), so that reads the caller started meanwhile (the plan's pages) go on.
 */
export async function loadDefinitionsFromDir(dir: string, options: LoadOptions = {}): Promise<LoadResult> {
  const paths = await listDefinitionFiles(dir);
  const files = await Promise.all(
    paths.map(async (path) => ({ path: displayPath(path), text: await readFile(path, 'utf8') })),
  );
  return loadDefinitionsInSlices(files, options);
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

/** Each section of a document: its kind, and the list of Definitions it goes into. */
const SECTIONS: Record<string, [ResourceKind, 'alerts' | 'channels' | 'schedules' | 'maintenanceWindows']> = {
  alerts: ['alert', 'alerts'],
  channels: ['channel', 'channels'],
  schedules: ['schedule', 'schedules'],
  maintenance_windows: ['maintenance window', 'maintenanceWindows'],
};

/**
 * Loads definitions from file texts: YAML with positions, `${VAR}` interpolation, schema validation, then the
 * semantic rules. Problems are collected, never thrown, so that all of them are reported at once.
 */
export function loadDefinitions(files: SourceFile[], options: LoadOptions = {}): LoadResult {
  return runToEnd(loadSteps(files, options));
}

/** As loadDefinitions, letting the event loop in every few milliseconds. */
export function loadDefinitionsInSlices(files: SourceFile[], options: LoadOptions = {}): Promise<LoadResult> {
  return runInSlices(loadSteps(files, options));
}

/** The load, pausing (`yield`) between files, documents and their stages. */
function* loadSteps(files: SourceFile[], options: LoadOptions): Steps<LoadResult> {
  const env = options.env ?? process.env;
  const definitions = emptyDefinitions();
  const problems: Problem[] = [];

  for (const file of files) {
    const documents = parseYamlFile(file, problems);
    // A string can hold `${` only if the text does, or writes it with an escape (`"\x24{...}"`): a file with neither
    // has nothing to interpolate, and its parsed value is taken as it is instead of copied (unless aliases made
    // objects shared, which the copy makes separate; `a && b` in an expression is no alias: mayHoldAlias).
    const mayInterpolate = file.text.includes('${') || file.text.includes('\\') || mayHoldAlias(file.text);
    yield;
    for (const { value: raw, locator } of documents) {
      const sensitive: string[] = [];
      const value = mayInterpolate
        ? interpolateValue(raw, '', env, sensitive, (path, name) =>
            problems.push({ location: locator.locate(path), path, message: `\${${name}} is not set and has no default (write \${${name}:-default})` }),
          )
        : raw;
      yield;
      // Items that are valid on their own still load, so later rules report their problems in the same run.
      const invalid = new Set<string>();
      const schemaProblems = checkDocumentSchema(value);
      yield;
      const schemaPaths = new Set(schemaProblems.map((problem) => problem.path));
      for (const problem of schemaProblems) {
        // An unknown field is pointed at by its key: the typo is there, not in its value.
        const location = problem.message.startsWith('unknown field') ? locator.locateKey(problem.path) : locator.locate(problem.path);
        problems.push({ location, path: problem.path, message: problem.message });
        invalid.add(problem.path.split('.').slice(0, 2).join('.'));
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
      const document = value as Record<string, unknown>;
      const sensitiveByItem = groupByItem(sensitive);
      for (const [section, [kind, into]] of Object.entries(SECTIONS)) {
        const list = document[section];
        if (!Array.isArray(list) || invalid.has(section)) continue;
        list.forEach((spec, index) => {
          const prefix = `${section}.${index}`;
          const item = spec as Record<string, unknown>;
          if (invalid.has(prefix)) {
            if (kind === 'channel' && typeof item?.description === 'string') (definitions.refusedChannels ??= []).push(item.description);
            // A window's own rules (a ** glob, a wrong duration) are said in the same run as its schema problems.
            if (kind === 'maintenance window') {
              for (const problem of checkWindowRules(item as WindowWithDuration)) {
                const path = problem.path ? `${prefix}.${problem.path}` : prefix;
                if (!schemaPaths.has(path)) problems.push({ location: locator.locate(path), path, message: problem.message });
              }
            }
            return;
          }
          const key = String(kind === 'channel' ? item.description : item.name);
          const entry = new DefinedItem<never>(kind, key, item as never, prefix, sensitiveByItem.get(prefix) ?? [], locator);
          ((definitions[into] ??= []) as Defined<never>[]).push(entry);
        });
      }
      const policies = document.escalation_policies;
      if (Array.isArray(policies) && !invalid.has('escalation_policies')) {
        policies.forEach((spec, index) => {
          const prefix = `escalation_policies.${index}`;
          if (invalid.has(prefix)) return;
          const policy = spec as EscalationPolicyDefinition;
          (definitions.escalationPolicies ??= []).push({
            key: policy.name,
            spec: policy,
            location: locator.locate(prefix),
            path: prefix,
            sensitivePaths: sensitiveByItem.get(prefix) ?? [],
            locate: (path: string) => locator.locate(path ? `${prefix}.${path}` : prefix),
          });
        });
      }
    }
  }
  problems.push(...(yield* checkDefinitionsSteps(definitions)));
  return { definitions, problems: sortProblems(problems), files: files.map((f) => f.path) };
}

/**
 * Sensitive paths (`alerts.3.destination`) grouped by their item (`alerts.3` → [`destination`]): one pass, where
 * filtering the whole list for each item was quadratic in a file of many interpolated items.
 */
function groupByItem(paths: string[]): Map<string, string[]> {
  const byItem = new Map<string, string[]>();
  for (const path of paths) {
    const parts = path.split('.');
    if (parts.length < 3) continue;
    const item = `${parts[0]}.${parts[1]}`;
    const rest = parts.slice(2).join('.');
    const list = byItem.get(item);
    if (list) list.push(rest);
    else byItem.set(item, [rest]);
  }
  return byItem;
}

/** The schema part each list item is checked against, one item at a time. */
const ITEM_SCHEMAS: Record<string, [SchemaName, string]> = {
  alerts: ['definitions', 'alert'],
  channels: ['definitions', 'channel'],
  schedules: ['schedule', 'create'],
  maintenance_windows: ['maintenance-window', 'definition'],
  escalation_policies: ['definitions', 'escalationPolicy'],
};

/**
 * A document's schema problems. Each list item is validated on its own: Ajv, with allErrors, concatenates the
 * errors array after every failing $ref, which made a file of 20,000 bad items quadratic (tens of seconds); per
 * item, each concatenation is as short as that item's own errors.
 */
function checkDocumentSchema(value: unknown): FieldProblem[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    const validate = validatorFor('definitions');
    return validate(value) ? [] : describeAjvErrors(validate.errors);
  }
  const shell: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const section of Object.keys(ITEM_SCHEMAS)) if (Array.isArray(shell[section])) shell[section] = [];
  const validateShell = validatorFor('definitions');
  const problems = validateShell(shell) ? [] : describeAjvErrors(validateShell.errors);
  for (const [section, [schema, def]] of Object.entries(ITEM_SCHEMAS)) {
    const list = (value as Record<string, unknown>)[section];
    if (!Array.isArray(list)) continue;
    const validate = validatorFor(schema, def);
    list.forEach((item, index) => {
      if (validate(item)) return;
      for (const problem of describeAjvErrors(validate.errors)) {
        const prefix = `${section}.${index}`;
        problems.push({ path: problem.path ? `${prefix}.${problem.path}` : prefix, message: problem.message });
      }
    });
  }
  return problems;
}

/** Replaces `${VAR}` in every string of a parsed document, noting which paths became sensitive. */
function interpolateValue(
  value: unknown,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  sensitive: string[],
  onMissing: (path: string, name: string) => void,
): unknown {
  if (typeof value === 'string') {
    if (!value.includes('${')) return value;
    const result = interpolateString(value, env);
    if (result.sensitive) sensitive.push(path);
    for (const name of result.missing) onMissing(path, name);
    return result.value;
  }
  // Loops rather than callbacks: this runs for every node of every file (a 10,000-alert repository has 200,000).
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) out[i] = interpolateValue(value[i], childPath(path, i), env, sensitive, onMissing);
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolateValue(v, childPath(path, k), env, sensitive, onMissing);
    return out;
  }
  return value;
}

function childPath(path: string, key: string | number): string {
  return path ? `${path}.${key}` : String(key);
}
