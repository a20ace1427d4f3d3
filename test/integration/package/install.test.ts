import { cp, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball, runCommand, startUntilUrl, userEnv, writeSqlitePrebuild, type StartedProcess } from '../../helpers/package-install.js';

/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` in an empty directory outside the
 * repository (nothing resolves back to the sources), then the CLI from node_modules/.bin against a server it
 * started itself on SQLite.
 */
describe('the npm package, installed into an empty directory', () => {
  let work: string;
  let app: string;
  let bin: string;
  let env: NodeJS.ProcessEnv;
  let server: StartedProcess | undefined;
  const key = 'package-test-key';
  const run = (args: string[], timeoutMs = 60_000) => runCommand(bin, args, { cwd: app, env, timeoutMs });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'alertform-package-'));
    const tarball = await packTarball(join(work, 'pack'));
    env = userEnv(await writeSqlitePrebuild(join(work, 'prebuilds')));
    app = join(work, 'app');
    await mkdir(app);
    const install = await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: app, env, timeoutMs: 600_000 });
    expect(install.code, install.stderr).toBe(0);
    bin = join(app, 'node_modules', '.bin', 'alertform');
  }, 900_000);

  afterAll(async () => {
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ships dist, bin, schemas, examples, README and LICENSE, and no sources, tests or the Action bundle', async () => {
    const root = join(app, 'node_modules', 'alertform');
    const top = (await readdir(root)).sort();
    expect(top).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'examples', 'package.json', 'schemas']);
    expect(await readdir(join(root, 'dist'))).not.toContain('action');
  });

  it('runs --help', async () => {
    const result = await run(['--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Usage: alertform');
  });

  it('validates, plans and applies the shipped examples against `alertform serve` on SQLite', async () => {
    const defs = join(app, 'alerts');
    await cp(join(app, 'node_modules', 'alertform', 'examples'), defs, { recursive: true });
    const validate = await run(['validate', 'alerts']);
    expect(validate.code, validate.stderr).toBe(0);

    server = await startUntilUrl(bin, ['serve', '--port', '0', '--db', join(app, 'alertform.db'), '--api-key', key], { cwd: app, env });
    const target = server.url.replace('http://', `http://${key}@`);
    const plan = await run(['plan', 'alerts', '--server', target]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/Plan: 19 to create/);
    const apply = await run(['apply', 'alerts', '--server', target, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const again = await run(['plan', 'alerts', '--server', target, '--detailed-exitcode']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('without the optional SQLite driver: validate still runs, serve says in one line what to install', async () => {
    const driver = join(app, 'node_modules', 'better-sqlite3');
    await rename(driver, `${driver}.away`);
    try {
      const validate = await run(['validate', 'alerts']);
      expect(validate.code, validate.stderr).toBe(0);
      const serve = await run(['serve', '--port', '0', '--db', join(app, 'other.db')]);
      expect(serve.code).toBe(1);
      const lines = serve.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('npm install better-sqlite3');
      expect(lines[0]).toContain('--db postgres://');
    } finally {
      await rename(`${driver}.away`, driver);
    }
  });
});
