import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnNodeServer } from '../../helpers/server-process.js';
import { nodeArgsFor } from '../../helpers/source-entry.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'alertform-serve-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'config-key-0123456789abcdefgh';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

describe('alertform serve --config', () => {
  it('serves from the file (its key from a variable, its metrics token from a file), a flag overriding it, readable logs with --log-format pretty', async () => {
    writeFileSync(join(dir, 'metrics-token'), 'metrics-token-from-a-file\n');
    const config = join(dir, 'alertform.yaml');
    writeFileSync(
      config,
      ['host: 127.0.0.1', 'port: 1', `db: ${join(dir, 'from-config.db')}`, 'api_keys: ["${SERVE_KEY}"]', 'metrics_token_file: metrics-token', 'log_level: info', ''].join('\n'),
    );
    // --port 0 wins over the file's port 1 (which would need root).
    const server = await spawnNodeServer(MAIN, ['serve', '--config', config, '--port', '0', '--log-format', 'pretty'], { env: { SERVE_KEY: KEY } });
    try {
      expect((await fetch(`${server.url}/v2/alerts/`, { headers: { authorization: basic(KEY) } })).status).toBe(200);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-from-a-file' } })).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const lines = server.stderr().trim().split('\n');
    expect(lines.find((line) => line.includes('server started'))).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  server started  url=${server.url.replaceAll('.', '\\.')} db=\\S+from-config\\.db evaluating=false$`));
    expect(lines.at(-1)).toMatch(/ INFO {2}server stopped {2}url=/);
    for (const line of lines) expect(line).not.toMatch(/^\{/);
    expect(server.stderr()).not.toContain('metrics-token-from-a-file');
  });

  it('refuses a file with mistakes, each at file:line:column, and starts nothing', () => {
    const config = join(dir, 'bad.yaml');
    writeFileSync(config, 'port: 0\ngraphit_url: http://127.0.0.1:8000\neval_interval: soon\n');
    const result = spawnSync(process.execPath, [...nodeArgsFor(MAIN), 'serve', '--config', config], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${config}:2:1  graphit_url  unknown field "graphit_url"`);
    expect(result.stderr).toContain(`${config}:3:16  eval_interval  must be a duration such as 90s, 15m, 2h or 1h30m`);
  });
});
