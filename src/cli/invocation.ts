import { realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * How the user can run alertform again from their shell, for the commands we print: `npx alertform` when this run
 * comes from a project's node_modules (a local install: `alertform` is not on PATH) or npx's cache, plain
 * `alertform` for a global install (npm's global root next to node) or anything else.
 */
export function commandName(script: string | undefined = process.argv[1], execPath: string = process.execPath): string {
  if (!script) return 'alertform';
  let path: string;
  try {
    path = realpathSync(script);
  } catch {
    path = resolve(script);
  }
  const prefix = dirname(dirname(execPath));
  // npm's global root: PREFIX/lib/node_modules on POSIX, PREFIX/node_modules beside node.exe on Windows.
  const globalRoots = [join(prefix, 'lib', 'node_modules'), join(dirname(execPath), 'node_modules')];
  if (globalRoots.some((root) => path.startsWith(`${root}${sep}`))) return 'alertform';
  return path.includes(`${sep}node_modules${sep}`) ? 'npx alertform' : 'alertform';
}
