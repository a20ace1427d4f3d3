import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { LineCounter, isMap, isNode, isScalar, parseDocument } from 'yaml';
import { interpolateString } from '../definitions/interpolate.js';
import { formatProblem, sortProblems, type Problem, type SourceLocation } from '../definitions/problems.js';
import { describeAjvErrors, validatorFor } from '../model/schemas.js';
import { CliError } from './errors.js';
import { secretsWrittenIn, sharedSecretFileWarning } from './config-secrets.js';
import { SERVE_OPTIONS, attributeName, configKey } from './serve-options.js';

/** What a config file sets: commander attribute → value (as the flag would give it), and the keys it lists. */
export interface ServeConfig {
  values: Map<string, string | boolean>;
  apiKeys: string[];
  /** What the caller should say on stderr: secrets in files others can read. */
  warnings: string[];
}

/** The options a file may set: every serve option but `--config` itself. */
const FILE_OPTIONS = SERVE_OPTIONS.filter((spec) => configKey(spec) !== 'config');

/**
 * Reads `alertform serve --config FILE`: YAML, validated by schemas/serve-config.schema.json, every problem at
 * file:line:column. Each string may say `${VAR}` or `${VAR:-default}` (an unset variable without a default is a
 * problem, not an empty value); a secret may instead be read from a file with `KEY_file: PATH`. Paths of the
 * `_file` keys and `api_key_file` are relative to the config file, as in Prometheus' and Alertmanager's files.
 * A value read from a `_file` is checked by the schema as if written in place; a config file or `_file` holding
 * secrets that its group or others can read is warned about, as a key on the command line is.
 */
export function readServeConfig(path: string, env: Readonly<Record<string, string | undefined>> = process.env): ServeConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`--config ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number): SourceLocation => {
    const pos = lineCounter.linePos(offset);
    return { file: path, line: pos.line, column: pos.col };
  };
  const locate = (key: string): SourceLocation => {
    const node = key ? doc.getIn(key.split('.'), true) : doc.contents;
    return isNode(node) && node.range ? at(node.range[0]) : { file: path, line: 1, column: 1 };
  };
  // An unknown key is pointed at where it is written (it has a value, but the value is not the mistake).
  const locateKey = (key: string): SourceLocation => {
    const pair = isMap(doc.contents) ? doc.contents.items.find((item) => isScalar(item.key) && item.key.value === key) : undefined;
    return pair && isScalar(pair.key) && pair.key.range ? at(pair.key.range[0]) : locate(key);
  };
  if (doc.errors.length > 0) {
    fail(doc.errors.map((error) => ({ location: at(error.pos[0]), path: '', message: error.message.split('\n')[0]! })));
  }
  const problems: Problem[] = [];
  const raw = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as unknown;
  const interpolated = interpolateAll(raw, '', env, (key, message) => problems.push({ location: locate(key), path: key, message }));
  const validate = validatorFor('serve-config');
  if (!validate(interpolated)) {
    // A value whose variable is unset is already said; what the schema thinks of the empty rest adds nothing.
    const unset = new Set(problems.map((problem) => problem.path));
    for (const problem of describeAjvErrors(validate.errors)) {
      if (unset.has(problem.path)) continue;
      const unknown = problem.message.startsWith('unknown field');
      problems.push({ location: unknown ? locateKey(problem.path) : locate(problem.path), path: problem.path, message: problem.message });
    }
  }
  if (problems.length > 0) fail(sortProblems(problems));
  const settings = interpolated as Record<string, unknown>;
  const base = dirname(resolve(path));
  const values = new Map<string, string | boolean>();
  const warnings: string[] = [];
  const written = secretsWrittenIn(raw, FILE_OPTIONS.map((spec) => ({ key: configKey(spec), secret: spec.secret })));
  const shared = written.length > 0 && sharedSecretFileWarning(path, `secrets (${written.join(', ')})`, 'chmod 600 it, or take them from the environment (${VAR}) or from KEY_file files only the server can read');
  if (shared) warnings.push(shared);
  // Values read from KEY_file files, put where KEY would stand, for the schema to judge like every other value.
  const fromFiles: Record<string, FileValue> = {};
  for (const spec of FILE_OPTIONS) {
    const key = configKey(spec);
    let value = settings[key];
    const fileKey = `${key}_file`;
    if (spec.secret && settings[fileKey] !== undefined) {
      const file = resolve(base, String(settings[fileKey]));
      if (value !== undefined) problems.push({ location: locate(fileKey), path: fileKey, message: `give ${key} or ${fileKey}, not both` });
      else value = readSecretFile(file, locate(fileKey), fileKey, problems);
      if (value !== undefined) {
        fromFiles[key] = { fileKey, file, value };
        const sharedFile = sharedSecretFileWarning(file, `the secret of ${fileKey}`);
        if (sharedFile) warnings.push(sharedFile);
      }
    }
    if (value === undefined) continue;
    if (key === 'api_key_file') value = resolve(base, String(value));
    values.set(attributeName(spec), asFlagValue(value));
  }
  problems.push(...checkFileValues(settings, fromFiles, locate));
  if (problems.length > 0) fail(problems);
  return { values, apiKeys: (settings.api_keys as string[] | undefined) ?? [], warnings };
}

/** A value read from a KEY_file file: the key that named the file, the file, and what it holds. */
interface FileValue {
  fileKey: string;
  file: string;
  value: unknown;
}

/**
 * The schema's problems with the values read from KEY_file files, pointed at the KEY_file key and naming the file;
 * the value itself is never echoed (it is a secret).
 */
function checkFileValues(
  settings: Record<string, unknown>,
  fromFiles: Record<string, FileValue>,
  locate: (key: string) => SourceLocation,
): Problem[] {
  if (Object.keys(fromFiles).length === 0) return [];
  const resolved: Record<string, unknown> = { ...settings };
  for (const [key, { fileKey, value }] of Object.entries(fromFiles)) {
    delete resolved[fileKey];
    resolved[key] = value;
  }
  const validate = validatorFor('serve-config');
  if (validate(resolved)) return [];
  return describeAjvErrors(validate.errors)
    .map((problem) => ({ problem, source: fromFiles[problem.path.split('.')[0]!] }))
    .filter(({ source }) => source !== undefined)
    .map(({ problem, source }) => ({ location: locate(source!.fileKey), path: source!.fileKey, message: `the content of ${source!.file} ${problem.message}` }));
}


/**
 * Puts a config file's values under the command's options that neither a flag nor a variable set: a flag wins
 * over its variable, which wins over the file, which wins over the default. The source becomes `config`, which
 * `--print-config` shows.
 */
export function applyServeConfig(command: Command, config: ServeConfig): void {
  for (const [attribute, value] of config.values) {
    const source = command.getOptionValueSource(attribute);
    if (source === undefined || source === 'default') command.setOptionValueWithSource(attribute, value, 'config');
  }
}

/** The value as commander holds it from a flag: text, except booleans (`console`, `allow_private_destinations`). */
function asFlagValue(value: unknown): string | boolean {
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'boolean') return value;
  return String(value);
}

/** Interpolates every string of a parsed value; problems name the dot path (for their position). */
function interpolateAll(
  value: unknown,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  problem: (path: string, message: string) => void,
): unknown {
  if (typeof value === 'string') {
    const result = interpolateString(value, env);
    if (result.missing.length > 0) problem(path, `the environment variable ${result.missing.join(', ')} is not set (write \${NAME:-default} for a default)`);
    return result.value;
  }
  if (Array.isArray(value)) return value.map((item, index) => interpolateAll(item, path ? `${path}.${index}` : String(index), env, problem));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateAll(item, path ? `${path}.${key}` : key, env, problem)]),
    );
  }
  return value;
}

function readSecretFile(file: string, location: SourceLocation, key: string, problems: Problem[]): string | undefined {
  try {
    // The one newline an editor or `echo` leaves at the end is not part of the secret.
    const secret = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    if (secret === '') problems.push({ location, path: key, message: `${file} is empty` });
    return secret;
  } catch (error) {
    problems.push({ location, path: key, message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    return undefined;
  }
}

function fail(problems: Problem[]): never {
  throw new CliError(problems.map(formatProblem).join('\n'));
}
