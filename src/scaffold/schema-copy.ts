import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { PROJECT_FILE } from '../definitions/file-rules.js';
import { SCHEMAS_DIR, SCHEMA_NAMES, type SchemaName } from '../model/schemas.js';

/**
 * Where a definitions repository keeps its copy of alertform's JSON Schemas. `$schema` lines point here with a
 * path relative to the file, so they resolve in any clone and editor, never into node_modules or a machine path.
 */
export const SCHEMA_COPY_DIR = '.alertform/schemas';

/** The schema files alertform ships, as [file name, absolute source path]. */
export function shippedSchemaFiles(): Array<[string, string]> {
  return SCHEMA_NAMES.map((name) => [`${name}.schema.json`, join(SCHEMAS_DIR, `${name}.schema.json`)]);
}

/** Copies the schemas into `<root>/.alertform/schemas/` (they belong to alertform: always the installed version). */
export async function copySchemas(root: string): Promise<string[]> {
  const target = join(root, SCHEMA_COPY_DIR);
  await mkdir(target, { recursive: true });
  const written: string[] = [];
  for (const [file, source] of shippedSchemaFiles()) {
    await copyFile(source, join(target, file));
    written.push(join(target, file));
  }
  return written;
}

/** The `# yaml-language-server: $schema=...` line of a file, relative to it, pointing into the repository's copy. */
export function schemaLine(file: string, root: string, name: SchemaName): string {
  return `# yaml-language-server: $schema=${schemaPathFrom(dirname(file), root, name)}`;
}

/** The path of a schema copy relative to a directory, with forward slashes (the line is committed). */
export function schemaPathFrom(fromDir: string, root: string, name: SchemaName): string {
  return relative(resolve(fromDir), resolve(root, SCHEMA_COPY_DIR, `${name}.schema.json`)).split('\\').join('/');
}

/**
 * The definitions repository a directory belongs to: the nearest directory, from `dir` up, that has
 * `.alertform/`, `alertform.yaml` or `.git`; `dir` itself when none has.
 */
export async function findRepositoryRoot(dir: string): Promise<string> {
  const start = resolve(dir);
  for (let current = start; ; current = dirname(current)) {
    for (const marker of ['.alertform', PROJECT_FILE, '.git']) {
      if (await exists(join(current, marker))) return current;
    }
    if (dirname(current) === current) return start;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
