import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const RECORDER = fileURLToPath(new URL('../../helpers/record-modules.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'alertform-cold-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The node arguments that run the CLI's sources module by module: the run's transpiled tree (its cli/main.js starts
 * the bundle, so an entry of main.ts's two lines on the tree's run.js), else the sources through tsx (watch mode), which
 * transpiles every module again in each process.
 */
function unbundledCli(): string[] {
  const build = process.env.ALERTFORM_TEST_BUILD;
  if (!build) return ['--import', 'tsx', MAIN];
  const entry = join(dir, 'main.mjs');
  writeFileSync(entry, `import { runCommandLine } from ${JSON.stringify(pathToFileURL(join(build, 'cli/run.js')).href)};\nawait runCommandLine(process.argv);\n`);
  return [entry];
}

/** A module's URL as its source's path (`file:///…/src/cli/run.ts`), whether it ran from the tree or the sources. */
function asSource(url: string): string {
  const build = process.env.ALERTFORM_TEST_BUILD;
  if (!build) return url;
  const tree = pathToFileURL(build).href + '/';
  return url.startsWith(tree) ? pathToFileURL(join(SRC, url.slice(tree.length))).href.replace(/\.js$/, '.ts') : url;
}

/** The modules (as the sources' URLs) that `alertform ARGS` loads, run module by module. */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const record = join(dir, `modules-${args.join('-').replace(/\W/g, '_')}.txt`);
  writeFileSync(record, '');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', RECORDER, ...unbundledCli(), ...args], {
      env: { ...process.env, ALERTFORM_RECORD_MODULES: record, NO_COLOR: '1' },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  expect(code).toBe(0);
  return readFileSync(record, 'utf8').split('\n').filter(Boolean).map(asSource);
}

/**
 * What no start-up may load: the server, the database drivers, the HTTP client, git, the installer. (Ajv is loaded
 * here, from src/; the built CLI loads the validators precompiled instead: compiled-validators.test.ts.)
 */
const HEAVY = [/\/src\/server\//, /\/src\/agent\//, /node_modules\/(pg|better-sqlite3|koa|ky|simple-git|pino|nodemailer|@inquirer)\//];
/** Constants the help texts show, in modules that import nothing heavy themselves. */
const HELP_CONSTANTS = ['/src/agent/agent-definition.ts', '/src/agent/carbon.ts'];
const heavy = (loaded: string[]) =>
  loaded.filter((url) => HEAVY.some((pattern) => pattern.test(url)) && !HELP_CONSTANTS.some((path) => url.endsWith(path)));

describe('the CLI start', { timeout: 60_000 }, () => {
  it('loads neither commander nor any command for --version: it answers before the program loads', async () => {
    const loaded = await modulesLoadedBy(['--version']);
    expect(loaded.some((url) => url.endsWith('/src/cli/run.ts'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/node_modules/commander/'))).toEqual([]);
    expect(loaded.filter((url) => /\/src\/cli\/(program|commands\/|actions\/)/.test(url))).toEqual([]);
    expect(heavy(loaded)).toEqual([]);
  });

  it('loads commander and no module of a command for --help', async () => {
    const loaded = await modulesLoadedBy(['--help']);
    expect(loaded.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    expect(heavy(loaded)).toEqual([]);
    expect(loaded.filter((url) => /\/src\/cli\/actions\//.test(url))).toEqual([]);
  });

  it('validates a directory without the server, the database drivers, the HTTP client or git', async () => {
    const repo = join(dir, 'repo');
    rmSync(repo, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(repo);
    writeFileSync(join(repo, 'channels.yaml'), 'channels:\n  - description: ops\n    type: email\n    destination: ops@example.com\n');
    writeFileSync(join(repo, 'alerts.yaml'), 'alerts:\n  - name: cpu\n    metric: web.cpu\n    alert_criteria: { type: above, above_value: 90 }\n    notification_channels: [ops]\n');
    const loaded = await modulesLoadedBy(['validate', repo]);
    expect(loaded.some((url) => url.includes('/src/cli/actions/validate.ts'))).toBe(true);
    expect(heavy(loaded)).toEqual([]);
  });

  it('creates a key in a SQLite file without the HTTP server, its metrics or the PostgreSQL driver', async () => {
    const loaded = await modulesLoadedBy(['keys', 'create', '--email', 'ops@example.com', '--db', join(dir, 'keys.db')]);
    expect(loaded.some((url) => url.endsWith('/src/server/store/sqlite/sqlite-store.ts'))).toBe(true);
    expect(loaded.filter((url) => /node_modules\/(koa|@koa|prom-client|pg|ajv)\/|\/src\/server\/(start-server|app|routes\/)/.test(url))).toEqual([]);
  });
});
