import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { spawnNodeServer, type NodeServerProcess } from '../../helpers/server-process.js';
import { cliScript } from '../../helpers/source-entry.js';

// One settings file read everywhere: serve, keys and backup find the database through ALERTFORM_CONFIG (or
// --config); what --print-config prints is a file serve starts from; the container's health check finds the port
// in it; SIGHUP applies a changed file's keys, log level and limits to a running server.

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const HEALTHCHECK = fileURLToPath(new URL('../../../deploy/healthcheck.sh', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'alertform-serve-settings-'));
const servers: NodeServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const K = (name: string) => `${name}-0123456789abcdefghijkl`;
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
let files = 0;
function file(text: string, name = `settings-${(files += 1)}.yaml`): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
/** A clean working directory, so that a database made in the wrong place shows. */
function workDir(): string {
  const cwd = join(dir, `cwd-${(files += 1)}`);
  mkdirSync(cwd);
  return cwd;
}
/** Settings that no environment of the test run overrides. */
const cleanEnv = { ALERTFORM_DB: undefined, ALERTFORM_CONFIG: undefined, ALERTFORM_PORT: undefined, ALERTFORM_LOG_LEVEL: undefined, ALERTFORM_API_KEYS: undefined };

async function serve(config: string, extra: NodeJS.ProcessEnv = {}): Promise<NodeServerProcess> {
  const server = await spawnNodeServer(MAIN, ['serve'], { env: { ...cleanEnv, ALERTFORM_CONFIG: config, ...extra } });
  servers.push(server);
  return server;
}

/** Resolves with the first JSON log line of `server` whose msg is `msg` (from now on), and that `also` accepts. */
function logLine(server: NodeServerProcess, msg: string, also: (line: Record<string, unknown>) => boolean = () => true): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const parsed = (() => {
          try {
            return JSON.parse(line) as Record<string, unknown>;
          } catch {
            return undefined;
          }
        })();
        if (parsed?.msg === msg && also(parsed)) {
          server.child.stderr!.off('data', onData);
          resolve(parsed);
        }
      }
    };
    server.child.stderr!.on('data', onData);
  });
}

describe('keys and backup read the database of the settings file', () => {
  it('keys create under ALERTFORM_CONFIG writes the key into the db the server uses, not ./alertform.db', async () => {
    const db = join(dir, 'configured.db');
    const config = file(`db: ${db}\nport: 0\nlog_level: warn\n`);
    const cwd = workDir();
    const created = await runCli(['keys', 'create', '--email', 'ops@example.com'], { cwd, env: { ...cleanEnv, ALERTFORM_CONFIG: config } });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`in ${db}:`);
    const key = created.stdout.trim();
    expect(readdirSync(cwd)).toEqual([]);
    // --config says the same as the variable.
    const listed = await runCli(['--json', 'keys', 'list', '--config', config], { cwd, env: cleanEnv });
    expect(JSON.parse(listed.stdout).keys.map((record: { email: string }) => record.email)).toEqual(['ops@example.com']);
    const server = await serve(config);
    expect((await fetch(`${server.url}/v2/alerts/`, { headers: { authorization: basic(key) } })).status).toBe(200);
    // backup copies that same database.
    const out = join(dir, 'backup.db');
    const backup = await runCli(['--json', 'backup', '--out', out], { cwd, env: { ...cleanEnv, ALERTFORM_CONFIG: config } });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ db, out });
    // --db (and ALERTFORM_DB) still win over the file.
    const other = join(dir, 'other.db');
    const elsewhere = await runCli(['keys', 'create', '--email', 'dev@example.com', '--db', other, '--config', config], { cwd, env: cleanEnv });
    expect(elsewhere.code).toBe(0);
    expect(existsSync(other)).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
  }, 120_000);

  it('a settings file that does not validate stops keys as it stops serve', async () => {
    const config = file('db: ./x.db\nsettle_delay: soon\n');
    const result = await runCli(['keys', 'list'], { cwd: workDir(), env: { ...cleanEnv, ALERTFORM_CONFIG: config } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${config}:2:15  settle_delay  must be a duration`);
  });
});

describe('serve --print-config', () => {
  it('prints a file that serve --config reads back to the same settings, and starts from', async () => {
    const config = file(
      [`db: ${join(dir, 'round-trip.db')}`, 'port: 0', 'settle_delay: 0', 'eval_interval: 15s', 'console: false', 'log_level: warn', 'max_alerts_per_account: 7', `api_keys: [${K('round')}]`, ''].join('\n'),
    );
    const first = await runCli(['serve', '--print-config'], { env: { ...cleanEnv, ALERTFORM_CONFIG: config } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('settle_delay: 0  # config file\n');
    const printed = file(first.stdout);
    const second = await runCli(['serve', '--config', printed, '--print-config'], { env: cleanEnv });
    expect(second.code, second.stderr).toBe(0);
    // The same values; every one now comes from the file (api_keys are not printed: they stay in the first file).
    const values = (text: string) => text.split('\n').filter((line) => !line.startsWith('#')).map((line) => line.replace(/ {2}# .*$/, ''));
    expect(values(second.stdout)).toEqual(values(first.stdout));
    expect(second.stdout).not.toContain('# default');
    const server = await serve(printed);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/`)).status).toBe(404); // console: false read back
  }, 120_000);
});

describe('the container health check', () => {
  it('finds the port in the settings file, with no ALERTFORM_PORT', async () => {
    const prefix = join(dir, 'prefix');
    mkdirSync(join(prefix, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(prefix, 'node_modules', '.bin', 'alertform'), cliScript());
    chmodSync(join(prefix, 'node_modules', '.bin', 'alertform'), 0o755);
    // A free port, then the server on it from the file alone (as the image runs it: 0.0.0.0 from ALERTFORM_HOST).
    const probe = await serve(file(`db: ':memory:'\nport: 0\nlog_level: warn\n`));
    const port = new URL(probe.url).port;
    await probe.stop();
    const config = file(`db: ':memory:'\nport: ${port}\nlog_level: warn\n`);
    const server = await serve(config, { ALERTFORM_HOST: '0.0.0.0' });
    expect(new URL(server.url).port).toBe(port);
    const check = (env: NodeJS.ProcessEnv) =>
      new Promise<number | null>((resolve) => {
        const child = spawn('sh', [HEALTHCHECK], { env: { ...process.env, ...cleanEnv, ALERTFORM_PREFIX: prefix, ALERTFORM_HOST: '0.0.0.0', ...env }, stdio: 'ignore' });
        child.on('exit', resolve);
      });
    expect(await check({ ALERTFORM_CONFIG: config })).toBe(0);
    // A settings file naming another port: the check fails, as it must when nothing answers there.
    expect(await check({ ALERTFORM_CONFIG: file(`db: ':memory:'\nport: 1\n`) })).toBe(1);
    // ALERTFORM_PORT still overrides the file, as it does for the server.
    expect(await check({ ALERTFORM_CONFIG: file(`db: ':memory:'\nport: 1\n`), ALERTFORM_PORT: port })).toBe(0);
  }, 120_000);
});

describe('SIGHUP', () => {
  it('applies the file\'s keys, log level and limits to the running server, and keeps them when the file is wrong', async () => {
    const body = (level: string, keys: string[], maxAlerts: number) =>
      [`db: ${join(dir, 'reload.db')}`, 'port: 0', `log_level: ${level}`, `max_alerts_per_account: ${maxAlerts}`, `api_keys: [${keys.join(', ')}]`, ''].join('\n');
    const config = file(body('warn', [K('first')], 1), 'reload.yaml');
    const server = await serve(config);
    const request = (key: string, method = 'GET', path = '/v2/alerts/', json?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: basic(key), 'content-type': 'application/json' },
        ...(json ? { body: JSON.stringify(json) } : {}),
      });
    const alert = (name: string) => ({ name, metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: [], notification_type: 'state_change' });
    expect((await request(K('second'))).status).toBe(401);
    expect((await request(K('first'), 'POST', '/v2/alerts/', alert('one'))).status).toBe(201);
    expect((await request(K('first'), 'POST', '/v2/alerts/', alert('two'))).status).toBe(403);
    expect(server.stderr()).not.toMatch(/"path":"\/v2\/alerts\/"/);

    writeFileSync(config, body('debug', [K('first'), K('second')], 2));
    const reloaded = logLine(server, 'settings reloaded');
    process.kill(server.pid, 'SIGHUP');
    expect(await reloaded).toMatchObject({ log_level: 'debug', api_keys: 2, limits: { alerts: 2 } });
    expect((await request(K('second'))).status).toBe(200);
    expect((await request(K('first'), 'POST', '/v2/alerts/', alert('two'))).status).toBe(201);
    expect((await request(K('first'), 'POST', '/v2/alerts/', alert('three'))).status).toBe(403);
    // At debug the requests are logged (they were not at warn).
    const logged = logLine(server, 'request', (line) => line.path === '/v2/schedules/');
    await request(K('first'), 'GET', '/v2/schedules/');
    expect(await logged).toMatchObject({ method: 'GET', status: 200 });

    // A wrong file: said in the log, the server keeps running on what it had.
    writeFileSync(config, `${body('debug', [K('first')], 2)}max_channels_per_account: none\n`);
    const refused = logLine(server, 'settings not reloaded: the running settings stay');
    process.kill(server.pid, 'SIGHUP');
    expect(String((await refused).error)).toContain('max_channels_per_account');
    expect((await request(K('second'))).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
