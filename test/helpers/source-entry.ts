import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
/** tsx's loader by its path, so that a child started in any directory (a temp repository) finds it. */
const TSX = fileURLToPath(import.meta.resolve('tsx'));

/**
 * The node arguments that run `entry` (a .ts file) in a child process: from the run's transpiled copy of src/
 * when there is one (ALERTFORM_TEST_BUILD, made by sources-global-setup.ts from the sources as they are when the
 * run starts), else through tsx. Both run the same esbuild output; the copy spares each of the run's hundreds of
 * servers and CLIs tsx's loader and its per-start transform lookups.
 */
export function nodeArgsFor(entry: string): string[] {
  const build = process.env.ALERTFORM_TEST_BUILD;
  const inSrc = relative(SRC, entry);
  if (!build || inSrc.startsWith('..') || !inSrc.endsWith('.ts')) return ['--import', TSX, entry];
  return [`${build}/${inSrc.slice(0, -'.ts'.length)}.js`];
}

/** A shell script that runs `alertform` from the sources (for a PATH a CI job's script finds it on). */
export function cliScript(): string {
  const args = [process.execPath, ...nodeArgsFor(join(SRC, 'cli/main.ts'))].map((arg) => `"${arg}"`).join(' ');
  return `#!/bin/sh\nexec ${args} "$@"\n`;
}
