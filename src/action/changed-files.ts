import { realpathSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { simpleGit } from 'simple-git';
import type { PlanChange } from '../plan/types.js';

/** Files a PR changed (paths relative to the repository root), or the reason they are unknown. */
export type ChangedFiles = { ok: true; root: string; files: string[] } | { ok: false; reason: string };

/**
 * The files changed between the PR's base and head, as GitHub shows them (`base...head`, from the merge base).
 * Falls back to `base..head` when there is no merge base; a shallow clone without the base commit gives a reason
 * instead (the example workflow checks out with fetch-depth: 0).
 */
export async function listChangedFiles(cwd: string, baseSha: string, headSha: string): Promise<ChangedFiles> {
  const git = simpleGit({ baseDir: cwd });
  let root: string;
  try {
    root = realpathSync((await git.revparse(['--show-toplevel'])).trim());
  } catch {
    return { ok: false, reason: `${cwd} is not a git checkout` };
  }
  for (const range of [`${baseSha}...${headSha}`, `${baseSha}..${headSha}`]) {
    try {
      const out = await git.raw(['diff', '--name-only', '--no-renames', range, '--']);
      return { ok: true, root, files: out.split('\n').filter((line) => line.length > 0) };
    } catch {
      // Try the next form.
    }
  }
  return { ok: false, reason: `git cannot diff ${baseSha.slice(0, 12)}..${headSha.slice(0, 12)} (is the checkout shallow? use fetch-depth: 0)` };
}

/** A changed file and the plan changes its definitions produced. */
export interface FileChanges {
  file: string;
  changes: PlanChange[];
}

/** Which changed file produced which change; changes no changed file explains (deletions, drift) come apart. */
export function mapChangesToFiles(
  changed: { root: string; files: string[] },
  changes: readonly PlanChange[],
  cwd: string,
): { files: FileChanges[]; unexplained: PlanChange[] } {
  const byFile = new Map<string, PlanChange[]>(changed.files.map((file) => [file, []]));
  const unexplained: PlanChange[] = [];
  for (const change of changes) {
    const file = change.source ? toRepoPath(changed.root, resolve(cwd, change.source.file)) : undefined;
    const list = file !== undefined ? byFile.get(file) : undefined;
    if (list) list.push(change);
    else unexplained.push(change);
  }
  return { files: [...byFile].map(([file, list]) => ({ file, changes: list })), unexplained };
}

function toRepoPath(root: string, absolute: string): string {
  let real = absolute;
  try {
    real = realpathSync(absolute);
  } catch {
    // A file that is gone keeps its given path.
  }
  return relative(root, real).split('\\').join('/');
}
