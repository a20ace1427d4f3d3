import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';

/** A real git repository in a temp dir, with a helper that writes files and commits them. */
export interface TempGitRepo {
  dir: string;
  git: SimpleGit;
  /** Writes (or, with null, deletes) files and commits; returns the new commit's sha. */
  commit(files: Record<string, string | null>, message?: string): Promise<string>;
  cleanup(): void;
}

export async function createGitRepo(): Promise<TempGitRepo> {
  const dir = mkdtempSync(join(tmpdir(), 'alertform-repo-'));
  const git = simpleGit({ baseDir: dir });
  await git.init(['--initial-branch=main']);
  await git.addConfig('user.name', 'Test');
  await git.addConfig('user.email', 'test@example.com');
  await git.addConfig('commit.gpgsign', 'false');
  return {
    dir,
    git,
    async commit(files, message = 'change') {
      for (const [path, content] of Object.entries(files)) {
        const full = join(dir, path);
        if (content === null) rmSync(full, { force: true });
        else {
          mkdirSync(dirname(full), { recursive: true });
          writeFileSync(full, content);
        }
      }
      await git.add(['-A']);
      await git.commit(message, ['--allow-empty']);
      return (await git.revparse(['HEAD'])).trim();
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
