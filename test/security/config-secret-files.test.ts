import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { spawnNodeServer } from '../helpers/server-process.js';

// Before: API keys, the metrics token and an SMTP password in a 0644 `serve --config` file went unwarned while
// `--api-key` on the command line was warned about; deploy/install.sh installed the config 0644; and a value read
// from a `KEY_file` skipped the schema (`smtp_url_file` holding an http:// URL started the server).

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'config-file-key-0123456789abcdef';
const TOKEN = 'metrics-token-written-in-the-file';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'af-config-secrets-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Writes a serve config with `mode` and answers its path. */
async function config(name: string, text: string, mode: number): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  await chmod(path, mode);
  return path;
}

const printConfig = (path: string, env: NodeJS.ProcessEnv = {}) => runCli(['serve', '--config', path, '--print-config'], { env: { ALERTFORM_LOG_LEVEL: 'silent', ...env } });

describe('secrets in serve config files', () => {
  it('warn when the file holding them is readable by others, and the server still serves', async () => {
    const path = await config(
      'open.yaml',
      `host: 127.0.0.1\nport: 0\ndb: ${join(dir, 'open.db')}\nmetrics_token: ${TOKEN}\nsmtp_url: smtp://alerts:hunter2@mail.example:587\napi_keys:\n  - ${KEY}\n`,
      0o644,
    );
    const server = await spawnNodeServer(MAIN, ['serve', '--config', path], { env: { ALERTFORM_LOG_LEVEL: 'warn' } });
    try {
      const answer = await fetch(`${server.url}/v2/alerts/`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` } });
      expect(answer.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const warning = server.stderr().split('\n').find((line) => line.startsWith(`warning: ${path}`));
    expect(warning).toBe(
      `warning: ${path} holds secrets (smtp_url, metrics_token, api_keys) and is readable by every user of this machine (mode 0644): chmod 600 it, or take them from the environment (\${VAR}) or from KEY_file files only the server can read`,
    );
    // The warning names the keys, never their values.
    expect(server.stderr()).not.toContain(TOKEN);
    expect(server.stderr()).not.toContain('hunter2');

    // Group-readable is warned too; 0600 is not.
    await chmod(path, 0o640);
    expect((await printConfig(path)).stderr).toContain("(mode 0640): chmod 600 it");
    expect((await printConfig(path)).stderr).toContain("readable by its group's users");
    await chmod(path, 0o600);
    const quiet = await printConfig(path);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('warning');
  }, 60_000);

  it('do not warn when the file only names variables and files; a shared KEY_file or key file is warned about', async () => {
    await writeFile(join(dir, 'token'), `${TOKEN}\n`, { mode: 0o600 });
    const path = await config(
      'refs.yaml',
      `db: \${DB_PATH}\nmetrics_token_file: token\nsmtp_url: smtp://\${SMTP_USER}:\${SMTP_PASSWORD}@mail.example\ngraphite_url: http://graphite.internal:8080/render\napi_keys:\n  - \${KEY_FROM_ENV}\n`,
      0o644,
    );
    const env = { DB_PATH: join(dir, 'refs.db'), SMTP_USER: 'u', SMTP_PASSWORD: 'p', KEY_FROM_ENV: KEY };
    const clean = await printConfig(path, env);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).not.toContain('warning');
    await chmod(join(dir, 'token'), 0o604);
    const shared = await printConfig(path, env);
    expect(shared.stderr).toContain(`warning: ${join(dir, 'token')} holds the secret of metrics_token_file and is readable by every user of this machine (mode 0604)`);
    expect(shared.stderr).not.toContain(TOKEN);

    const keys = join(dir, 'keys.txt');
    await writeFile(keys, `${KEY}\n`, { mode: 0o644 });
    await chmod(keys, 0o644);
    const flag = await runCli(['serve', '--db', join(dir, 'k.db'), '--api-key-file', keys, '--print-config']);
    expect(flag.stderr).toContain(`warning: ${keys} holds API keys (--api-key-file) and is readable by every user of this machine (mode 0644)`);
  }, 60_000);

  it('check a value read from a KEY_file with the schema, as if written in place, without echoing it', async () => {
    await writeFile(join(dir, 'smtp-url'), 'http://alerts:s3cret-in-file@mail.example\n', { mode: 0o600 });
    await writeFile(join(dir, 'graphite-url'), 'ftp://graphite.internal\n', { mode: 0o600 });
    const path = await config('files.yaml', `db: ${join(dir, 'files.db')}\nsmtp_url_file: smtp-url\ngraphite_url_file: graphite-url\n`, 0o600);
    const result = await runCli(['serve', '--config', path, '--port', '0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${path}:2:16  smtp_url_file  the content of ${join(dir, 'smtp-url')} must be an smtp:// or smtps:// URL`);
    expect(result.stderr).toContain(`${path}:3:20  graphite_url_file  the content of ${join(dir, 'graphite-url')} must be an http:// or https:// URL`);
    expect(result.stderr).not.toContain('s3cret-in-file');
    expect(result.stdout).not.toMatch(/http:\/\/127\.0\.0\.1:\d+/);
  }, 60_000);

  it('are installed 0600 by deploy/install.sh', async () => {
    // The install step itself (npm install of the packed tarball, as a non-root user) runs in
    // test/integration/deploy/install-and-start.test.ts, which checks the installed file's mode; here, the script's
    // own line, so that a change back to 0644 fails the security suite too.
    const script = await readFile(join(ROOT, 'deploy', 'install.sh'), 'utf8');
    expect(script).toMatch(/^chmod 600 "\$prefix\/alertform[\w-]*\.yaml"$/m);
    expect(script).not.toMatch(/chmod 6[0-7][1-7] "\$prefix\/alertform[\w-]*\.yaml"/);
    // The image gives the 0600 file to the user the server runs as (root owns what the build stage wrote).
    const dockerfile = await readFile(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^COPY --from=build --chown=alertform:alertform \/opt\/alertform\/\*\.yaml \/opt\/alertform\/$/m);
  });
});
