import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { nodeArgsFor } from '../../helpers/source-entry.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('alertform serve with evaluation', () => {
  it('rejects a bad --eval-interval and a --graphite-url that is not http(s)', async () => {
    const interval = await runCli(['serve', '--db', ':memory:', '--graphite-url', 'http://127.0.0.1:9', '--eval-interval', 'soon']);
    expect(interval.code).toBe(1);
    expect(interval.stderr).toContain('--eval-interval must be a positive number of seconds');
    const url = await runCli(['serve', '--db', ':memory:', '--graphite-url', 'ftp://graphite']);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('--graphite-url must be an http(s) URL');
    const age = await runCli(['serve', '--db', ':memory:', '--delivery-max-age', 'a day']);
    expect(age.code).toBe(1);
    expect(age.stderr).toContain('--delivery-max-age must be a positive duration such as 90s, 15m or 24h, not "a day"');
    for (const settle of ['soon', '1.5s', '2h']) {
      const bad = await runCli(['serve', '--db', ':memory:', '--settle-delay', settle]);
      expect(bad.code, settle).toBe(1);
      expect(bad.stderr).toContain(`--settle-delay must be whole seconds from 0 to 1h, such as 60s or 2m, not "${settle}"`);
    }
  }, 90_000);

  it('starts with --delivery-max-age 1w, weeks being a unit of every duration flag', async () => {
    const child = spawn(
      process.execPath,
      [...nodeArgsFor(MAIN), 'serve', '--port', '0', '--db', ':memory:', '--api-key', 'flag-key-0123456789abcdefgh', '--delivery-max-age', '1w', '--eval-interval', '30s'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ALERTFORM_LOG_LEVEL: 'warn' } },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    closers.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('listening on http://')) resolve();
      });
      void exited.then((code) => reject(new Error(`serve exited ${code}: ${output}`)));
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toContain('must be a positive duration');
  }, 90_000);

  it('evaluates alerts against --graphite-url every --eval-interval seconds', async () => {
    const now = Math.floor(Date.now() / 1000);
    const render = await startFakeRender(() => ({ series: [makeSeries('serve.flag.load', [7, 7, 7], now - 30, 30)] }));
    closers.push(render.close);
    const child = spawn(
      process.execPath,
      [...nodeArgsFor(MAIN), 'serve', '--port', '0', '--db', ':memory:', '--api-key', 'flag-key-0123456789abcdefgh', '--graphite-url', render.url, '--eval-interval', '1'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ALERTFORM_LOG_LEVEL: 'warn' } },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    closers.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${stdout}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match && stdout.includes('evaluating alerts against Graphite every 1 s')) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    expect(stdout).not.toContain(render.url); // the Graphite URL may hold credentials: never printed
    const auth = { authorization: `Bearer flag-key-0123456789abcdefgh`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v2/alerts/`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'load', metric: 'serve.flag.load', alert_criteria: { type: 'above', above_value: 5 } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const deadline = Date.now() + 20_000;
    let status = '';
    while (status !== 'alerting' && Date.now() < deadline) {
      status = ((await (await fetch(`${url}/v2/alerts/${id}/`, { headers: auth })).json()) as { status: string }).status;
      if (status !== 'alerting') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe('alerting');
    expect(render.requests.some((r) => r.targets.includes('serve.flag.load'))).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);
});
