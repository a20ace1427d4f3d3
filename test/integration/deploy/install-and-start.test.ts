import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball, runCommand, startUntilUrl, userEnv, type StartedProcess } from '../../helpers/package-install.js';
import { hasCommand, systemPart } from '../../helpers/system.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NOBODY = 65534;
// runuser needs root; CI runs as root (it installs Debian packages).
const canSwitchUser = process.getuid?.() === 0 && hasCommand('runuser');
const availability = systemPart('root with runuser (to run the deploy steps as nobody)', canSwitchUser);
const systemdAnalyze = systemPart('systemd-analyze (Debian package systemd)', hasCommand('systemd-analyze'));

/**
 * deploy/'s install and start steps, as the Dockerfile RUNs them (deploy/install.sh, deploy/start.sh, the
 * HEALTHCHECK's deploy/healthcheck.sh), run as `nobody` in a clean directory: no container runtime is needed to
 * know that the image's steps work for a non-root user.
 */
describe.skipIf(availability.skip)('deploy/: install and start as a non-root user', () => {
  let work: string;
  let prefix: string;
  let server: StartedProcess | undefined;
  let env: NodeJS.ProcessEnv;
  const asNobody = (args: string[]) => ['-u', 'nobody', '--', 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...args];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'alertform-deploy-'));
    await chmod(work, 0o755);
    const tarball = await packTarball(join(work, 'package'));
    // What the image's COPY brings in: the scripts, beside nothing else of the repository.
    await mkdir(join(work, 'deploy'));
    for (const script of ['install.sh', 'start.sh', 'healthcheck.sh', 'alertform-server.yaml']) await copyFile(join(ROOT, 'deploy', script), join(work, 'deploy', script));
    // nobody cannot read root's npm cache: a copy of it keeps the install offline-first (the registry stays reachable).
    // cp(1), not fs.cp: the cache is thousands of files, which node's copy took 2.4 core-seconds over and cp 0.2.
    const cache = join(work, 'npm-cache');
    await mkdir(cache);
    await runCommand('cp', ['-r', join(process.env.HOME ?? '/root', '.npm', '_cacache'), join(cache, '_cacache')], { cwd: work });
    // The Node running these tests (a supported line) may live where nobody cannot reach it (scripts/use-node.sh keeps
    // it under root's home): a copy of it, first on nobody's PATH, runs the install and the server on the same line.
    const nodeDir = join(work, 'node-bin');
    await mkdir(nodeDir);
    await copyFile(process.execPath, join(nodeDir, 'node'));
    await chmod(join(nodeDir, 'node'), 0o755);
    const user = userEnv();
    env = {
      ...user,
      PATH: `${nodeDir}:${user.PATH ?? ''}`,
      HOME: join(work, 'home'),
      npm_config_cache: cache,
      npm_config_prefer_offline: 'true',
    };
    delete env.PWD;
    await mkdir(join(work, 'home'));
    await mkdir(join(work, 'data'));
    await runCommand('chown', ['-R', `${NOBODY}:${NOBODY}`, work], { cwd: work });
    prefix = join(work, 'opt', 'alertform');
    const install = await runCommand('runuser', asNobody(['sh', join(work, 'deploy', 'install.sh'), tarball, prefix]), { cwd: work, env, timeoutMs: 600_000 });
    expect(install.code, install.stderr).toBe(0);
  }, 900_000);

  afterAll(async () => {
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('installs into the prefix, owned by the non-root user, with start.sh, healthcheck.sh and the settings template (0600)', async () => {
    expect((await stat(join(prefix, 'node_modules', 'alertform', 'package.json'))).uid).toBe(NOBODY);
    expect((await stat(join(prefix, 'start.sh'))).mode & 0o111).toBeTruthy();
    expect((await stat(join(prefix, 'healthcheck.sh'))).mode & 0o111).toBeTruthy();
    expect(await readFile(join(prefix, 'alertform-server.yaml'), 'utf8')).toBe(await readFile(join(ROOT, 'deploy', 'alertform-server.yaml'), 'utf8'));
    // Only its owner reads the settings, which may hold secrets.
    expect((await stat(join(prefix, 'alertform-server.yaml'))).mode & 0o777).toBe(0o600);
  });

  it('reads the settings file the image and the unit name (ALERTFORM_CONFIG), a variable overriding one of its keys', async () => {
    const dockerfile = await readFile(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/ALERTFORM_CONFIG=\/opt\/alertform\/alertform-server\.yaml/);
    const unit = await readFile(join(ROOT, 'deploy', 'alertform.service'), 'utf8');
    expect(unit).toMatch(/^Environment=ALERTFORM_CONFIG=\/etc\/alertform\/alertform-server\.yaml /m);
    const saved = env;
    env = { ...env, ALERTFORM_CONFIG: join(prefix, 'alertform-server.yaml'), ALERTFORM_HOST: '0.0.0.0' };
    try {
      const printed = await runCommand('runuser', asNobody([join(prefix, 'start.sh'), '--print-config']), { cwd: work, env });
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain('host: 0.0.0.0  # ALERTFORM_HOST');
      expect(printed.stdout).toContain('db: /var/lib/alertform/alertform.db  # config file');
      expect(printed.stdout).toContain('log_format: json  # config file');
    } finally {
      env = saved;
    }
  });

  it('starts from the environment alone, is ready, passes the HEALTHCHECK, writes its database as nobody, stops on SIGTERM', async () => {
    const db = join(work, 'data', 'alertform.db');
    const serveEnv = { ALERTFORM_HOST: '127.0.0.1', ALERTFORM_PORT: '0', ALERTFORM_DB: db, ALERTFORM_API_KEYS: 'deploy-key-0123456789abcdefgh' };
    env = { ...env, ...serveEnv };
    server = await startUntilUrl('runuser', asNobody([join(prefix, 'start.sh')]), { cwd: work, env, timeoutMs: 60_000 });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    const port = new URL(server.url).port;
    env = { ...env, ALERTFORM_PORT: port };
    const health = await runCommand('runuser', asNobody([join(prefix, 'healthcheck.sh')]), { cwd: work, env });
    expect(health.code, health.stderr).toBe(0);
    expect((await stat(db)).uid).toBe(NOBODY);
    const listed = await fetch(`${server.url}/v2/alerts/`, { headers: { authorization: `Basic ${Buffer.from('deploy-key-0123456789abcdefgh:').toString('base64')}` } });
    expect(listed.status).toBe(200);
    // SIGTERM to the server itself, as Docker signals the container's first process (start.sh exec'd into it).
    const runuserPid = server.child.pid!;
    const [serverPid] = (await readFile(`/proc/${runuserPid}/task/${runuserPid}/children`, 'utf8')).trim().split(/\s+/).map(Number);
    expect((await stat(`/proc/${serverPid}`)).uid).toBe(NOBODY);
    const exited = new Promise((resolve) => server!.child.once('exit', (code) => resolve(code)));
    process.kill(serverPid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(server.output()).toContain('"msg":"server stopped"');
    server = undefined;
    // Once stopped, the health check fails, as Docker would see it.
    const down = await runCommand('runuser', asNobody([join(prefix, 'healthcheck.sh')]), { cwd: work, env });
    expect(down.code).toBe(1);
  });

  it('the Dockerfile and the systemd unit run these same scripts', async () => {
    const dockerfile = await readFile(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^RUN deploy\/install\.sh \S+\.tgz \/opt\/alertform$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*CMD \["\/opt\/alertform\/healthcheck\.sh"\]$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/opt\/alertform\/start\.sh"\]$/m);
    expect(dockerfile).toMatch(/^USER alertform$/m);
    const unit = await readFile(join(ROOT, 'deploy', 'alertform.service'), 'utf8');
    expect(unit).toMatch(/^ExecStart=\/opt\/alertform\/start\.sh$/m);
  });

  it.skipIf(systemdAnalyze.skip)('the systemd unit verifies (systemd-analyze) against this install', async () => {
    const unit = (await readFile(join(ROOT, 'deploy', 'alertform.service'), 'utf8')).replace('/opt/alertform/start.sh', join(prefix, 'start.sh'));
    const path = join(work, 'alertform.service');
    await writeFile(path, unit);
    const verify = await runCommand('systemd-analyze', ['verify', path], { cwd: work });
    const ours = verify.stderr.split('\n').filter((line) => line.includes('alertform.service'));
    expect(ours, verify.stderr).toEqual([]);
  });
});
