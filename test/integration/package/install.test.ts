import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball, runCommand, startUntilUrl, userEnv, type StartedProcess } from '../../helpers/package-install.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

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
  let tarball: string;
  // Operator keys are 24+ characters (as the README's openssl rand -hex 16 makes).
  const key = 'package-test-key-0123456789';
  const run = (args: string[], timeoutMs = 60_000) => runCommand(bin, args, { cwd: app, env, timeoutMs });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'alertform-package-'));
    tarball = await packTarball(join(work, 'pack'));
    env = userEnv();
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

  it('ships dist, bin, the console, schemas, examples, README and LICENSE, and no sources, tests or the Action itself', async () => {
    const root = join(app, 'node_modules', 'alertform');
    const top = (await readdir(root)).sort();
    expect(top).toEqual(['LICENSE', 'README.md', 'bin', 'console', 'dist', 'examples', 'package.json', 'schemas']);
    // Of the Action's modules, only the comment's composition and posting, which `plan --out-comment` and
    // `alertform comment` share with it; never its entry, inputs or runs.
    expect((await readdir(join(root, 'dist', 'action'))).filter((name) => name.endsWith('.js')).sort()).toEqual([
      'changed-files.js',
      'comment.js',
      'compose.js',
      'github.js',
      'run-rule-tests.js',
    ]);
  });

  it('is the tarball a release publishes: its files, and the checksum step of the release workflow verifies it', async () => {
    const listing = await runCommand('tar', ['-tzf', tarball], { cwd: work });
    const files = listing.stdout.split('\n').filter(Boolean).map((path) => path.replace(/^package\//, ''));
    for (const file of ['package.json', 'README.md', 'LICENSE', 'bin/alertform', 'dist/cli/main.js', 'schemas/definitions.schema.json', 'examples/ci/gitlab-ci.yml', 'examples/workflows/alertform-drift.yml']) {
      expect(files, file).toContain(file);
    }
    expect(files.filter((path) => /^(src|test|action|\.github)\/|\.map$|^dist\/action\/(index|main|run|run-plan|run-apply|inputs|event|publish)\.js$/.test(path))).toEqual([]);
    const release = parse(await readFile(join(ROOT, '.github/workflows/release.yml'), 'utf8'));
    const checksums = release.jobs.npm.steps.find((step: { name?: string }) => step.name === 'Checksums').run as string;
    const dir = join(work, 'pack');
    expect((await runCommand('sh', ['-e', '-c', checksums], { cwd: dir })).code).toBe(0);
    expect(await readFile(join(dir, 'SHA256SUMS'), 'utf8')).toMatch(/^[0-9a-f]{64} {2}alertform-\d+\.\d+\.\d+\.tgz\n$/);
    const verified = await runCommand('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir });
    expect(verified.stdout).toMatch(/alertform-.*\.tgz: OK/);
  });

  it('starts the CLI from its bundle, which names no path of the machine it was built on', async () => {
    const cli = join(app, 'node_modules', 'alertform', 'dist', 'cli');
    expect(await readFile(join(cli, 'main.js'), 'utf8')).toContain("import './bundle/main.js'");
    const files = (await readdir(join(cli, 'bundle'))).filter((name) => name.endsWith('.js'));
    expect(files).toContain('main.js');
    // A build path would make the installed CLI read schemas/, console/ and better-sqlite3 from the build's tree.
    for (const file of files) expect(await readFile(join(cli, 'bundle', file), 'utf8'), file).not.toContain(ROOT);
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
    // A local install puts no alertform on PATH: the next steps say npx.
    expect(init.stdout).toContain('\n  npx alertform validate\n');
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
  }, 120_000); // six cold starts of the installed CLI and a server: more than the default 30 s on a loaded machine

  it('runs the demo with hints that work in this directory (no ./bin/alertform, no ./examples here)', async () => {
    const demo = await run(['demo', '--port', '0', '--exit'], 180_000);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('Apply: 20 done, 0 failed, 0 skipped.');
    const hint = /^  (npx alertform plan (\S+) --server \S+)$/m.exec(demo.stdout);
    expect(hint, demo.stdout).not.toBeNull();
    expect(hint![2]).toBe('.alertform-demo/examples');
    // The hinted directory is there, and the hinted command shape runs from here.
    const validate = await runCommand('npx', ['alertform', 'validate', hint![2]!], { cwd: app, env });
    expect(validate.code, validate.stderr).toBe(0);
  }, 180_000);

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
