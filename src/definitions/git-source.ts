import { realpathSync } from 'node:fs';
import { relative, resolve, posix } from 'node:path';
import { simpleGit } from 'simple-git';
import type { SourceFile } from './load.js';
import { PROJECT_FILE, isDefinitionFile } from './file-rules.js';
import { AlertformError } from '../model/errors.js';

/** Definition files (and alertform.yaml's text, if any) of a directory as they were at a git revision. */
export interface FilesAtRef {
  files: SourceFile[];
  projectFile?: SourceFile;
}

/**
 * Reads the definitions of `dir` at `ref` straight from git's object store (ls-tree + show), so the work tree,
 * the index and HEAD stay as they are. File names are reported as `REF:path`.
 */
export async function readDefinitionFilesAtRef(dir: string, ref: string): Promise<FilesAtRef> {
  const root = (await simpleGit(resolve(dir)).revparse(['--show-toplevel'])).trim();
  // From the top, so that ls-tree paths and `show REF:path` agree whatever the directory.
  const git = simpleGit(root);
  const prefix = relative(root, realpathSync(resolve(dir))).split('\\').join('/');
  await git.revparse(['--verify', `${ref}^{commit}`]).catch(() => {
    throw new AlertformError('unknown_ref', `unknown git revision "${ref}"`);
  });
  const projectPath = prefix ? posix.join(prefix, PROJECT_FILE) : PROJECT_FILE;
  const listing = await git.raw(['ls-tree', '-r', '--name-only', ref, '--', prefix || '.']);
  const paths = listing
    .split('\n')
    .filter(Boolean)
    .filter((p) => p === projectPath || isDefinitionFile(prefix ? posix.relative(prefix, p) : p));
  const show = async (path: string): Promise<SourceFile> => ({ path: `${ref}:${path}`, text: await git.show([`${ref}:${path}`]) });
  const files = await Promise.all(paths.filter((p) => p !== projectPath).map(show));
  const projectFile = paths.includes(projectPath) ? await show(projectPath) : undefined;
  return { files, ...(projectFile ? { projectFile } : {}) };
}
