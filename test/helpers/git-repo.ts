import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { simpleGit, type SimpleGit } from 'simple-git';

const run = promisify(execFile);

/** The test's environment without git's own variables, which would point git elsewhere (as simple-git drops them). */
const gitEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));

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
  // The author and unsigned commits go into the config file, and a commit's three git steps run in one shell: each
  // process a test worker starts costs the worker tens of ms of CPU (CONTRIBUTING.md), and these were three more per
  // repository and two more per commit.
  appendFileSync(join(dir, '.git', 'config'), '[user]\n\tname = Test\n\temail = test@example.com\n[commit]\n\tgpgsign = false\n');
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
      const script = 'git add -A && git commit -q --allow-empty -m "$1" && git rev-parse HEAD';
      const { stdout } = await run('sh', ['-c', script, 'sh', message], { cwd: dir, env: gitEnv() });
      return stdout.trim();
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
