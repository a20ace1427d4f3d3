import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
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
  // Operator keys are 24+ characters (as the README's openssl rand -hex 16 makes).
  const key = 'package-test-key-0123456789';
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

  it('ships dist, bin, the console, schemas, examples, README and LICENSE, and no sources, tests or the Action bundle', async () => {
    const root = join(app, 'node_modules', 'alertform');
    const top = (await readdir(root)).sort();
    expect(top).toEqual(['LICENSE', 'README.md', 'bin', 'console', 'dist', 'examples', 'package.json', 'schemas']);
    expect(await readdir(join(root, 'dist'))).not.toContain('action');
  });

  it('runs --help', async () => {
    const result = await run(['--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Usage: alertform');
  });

  it('draws a graph picture with the renderer installed from npm (prebuilt, no download, no system font)', async () => {
    const module = join(app, 'node_modules', 'alertform', 'dist', 'server', 'graph', 'render-png.js');
    const script = `const { renderGraphPng } = await import(${JSON.stringify(module)});
      const png = await renderGraphPng({ from: 0, until: 60, criteria: [{ name: 'alert_criteria', metric: 'm', type: 'above', thresholds: [1], series: [] }], alerting: [], error: null });
      process.stdout.write(png.subarray(1, 4).toString() + ' ' + png.readUInt32BE(16) + 'x' + png.readUInt32BE(20));`;
    const result = await runCommand(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('PNG 800x300');
  });

  it("follows the README's quick start from an empty directory: init, validate, serve, plan, apply", async () => {
    // The README's commands, with a free port instead of 8080 (tests run side by side).
    const init = await run(['init']);
    expect(init.code, init.stderr).toBe(0);
    const validate = await run(['validate']);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('Valid: 1 alert(s), 1 channel(s)');

    server = await startUntilUrl(bin, ['serve', '--port', '0', '--api-key', key], { cwd: app, env });
    // The web console ships in the package: its page, its modules and the charting library from node_modules.
    for (const path of ['/', '/console/app.js', '/console/vendor/uplot.esm.js']) expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
    const target = server.url.replace('http://', `http://${key}@`);
    const plan = await run(['plan', '--server', target]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to mute, 0 to delete.');
    const apply = await run(['apply', '--server', target, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const again = await run(['plan', '--server', target, '--detailed-exitcode']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('runs the demo with hints that work in this directory (no ./bin/alertform, no ./examples here)', async () => {
    const demo = await run(['demo', '--port', '0', '--exit'], 180_000);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('Apply: 19 done, 0 failed, 0 skipped.');
    const hint = /^  (npx alertform plan (\S+) --server \S+)$/m.exec(demo.stdout);
    expect(hint, demo.stdout).not.toBeNull();
    expect(hint![2]).toBe('.alertform-demo/examples');
    // The hinted directory is there, and the hinted command shape runs from here.
    const validate = await runCommand('npx', ['alertform', 'validate', hint![2]!], { cwd: app, env });
    expect(validate.code, validate.stderr).toBe(0);
  });

  it('without the optional SQLite driver: validate still runs, serve says in one line what to install', async () => {
    const driver = join(app, 'node_modules', 'better-sqlite3');
    await rename(driver, `${driver}.away`);
    try {
      const validate = await run(['validate']);
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
