import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/program.js';
import { MIN_OPERATOR_KEY_LENGTH } from '../../../src/cli/actions/serve.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

/** Every command's whole --help (the examples after it included), without running a process per command. */
function allHelp(): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  const walk = (command: Command, path: string) => {
    let text = '';
    command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
    command.outputHelp();
    out.push({ path, text });
    for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`);
  };
  walk(createProgram(), 'alertform');
  return out;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('what a newcomer meets first', { timeout: 120_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('every literal API key in an example of --help is one the server accepts', async () => {
    const keys = new Set<string>();
    for (const { text } of allHelp()) {
      for (const match of text.matchAll(/--api-key[ =](\S+)|ALERTFORM_API_KEYS?=(\S+)|https?:\/\/([^\s/@]+)@/g)) {
        for (const key of (match[1] ?? match[2] ?? match[3] ?? '').replace(/["']/g, '').split(',')) {
          // Shell variables and placeholders (KEY, ...) stand for a key; anything else must be a real one.
          if (key && !key.startsWith('$') && !/^([A-Z0-9_]+|\.\.\.|<[^>]*>)$/.test(key)) keys.add(key);
        }
      }
    }
    expect(keys.size).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.length, key).toBeGreaterThanOrEqual(MIN_OPERATOR_KEY_LENGTH);
      expect(key, key).not.toContain(':');
      const keyed = await startTestServer({ keys: [key] });
      try {
        expect((await keyed.request('GET', '/v2/alerts/')).status, key).toBe(200);
      } finally {
        await keyed.close();
      }
    }
  });

  it('answers a bad flag with the one error and where the help is, not the whole help', async () => {
    const result = await runCli(['plan', '.', '--bogus']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("error: unknown option '--bogus'\n(run `alertform plan --help` for usage)\n");
    const sub = await runCli(['keys', 'list', '--nope']);
    expect(sub.stderr).toBe("error: unknown option '--nope'\n(run `alertform keys list --help` for usage)\n");
  });

  it('fails at once, with what to do, when nothing listens at a server on this machine (no retries)', async () => {
    const port = await closedPort();
    const result = await runCli(['plan', 'examples', '--server', `http://secret-key-0123456789abcdef@127.0.0.1:${port}`]);
    expect(result.code).toBe(1);
    // Nothing listens here, and a few seconds of retries would not start it: no retry, one error and the hint.
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^alertform: GET http://127\\.0\\.0\\.1:${port}/v2/\\S+ got no answer: .*ECONNREFUSED[^()]*$`));
    expect(lines[1]).toBe(`hint: nothing is listening at http://127.0.0.1:${port}: start \`alertform serve\` or set --server / ALERTFORM_URL to your server`);
    expect(result.stderr).not.toContain('secret-key-0123456789abcdef');
    // The same through ALERTFORM_URL and localhost, and in the --json error document.
    const json = await runCli(['plan', 'examples', '--json'], { env: { ALERTFORM_URL: `http://localhost:${port}` } });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error.message).toMatch(/ECONNREFUSED.*\(nothing is listening at http:\/\/localhost:\d+: start `alertform serve` or set --server \/ ALERTFORM_URL to your server\)$/);
    expect(json.stderr).not.toContain('retrying');
  });

  it('says once, with the count, that it retries a server that answers 503, and how many retries it gave up after', async () => {
    const unavailable = createHttpServer((_req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"down for a moment"}}'));
    await new Promise<void>((resolve) => unavailable.listen(0, '127.0.0.1', resolve));
    const { port } = unavailable.address() as { port: number };
    try {
      const result = await runCli(['plan', 'examples', '--server', `http://secret-key-0123456789abcdef@127.0.0.1:${port}`]);
      expect(result.code).toBe(1);
      // The plan reads its three lists side by side, each retried four times: one line says so, not twelve.
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^alertform: GET http://127\\.0\\.0\\.1:${port}/v2/\\S+ answered 503: down for a moment; retrying \\(up to 4 times per request\\)$`));
      expect(lines[1]).toMatch(/answered 503: down for a moment \(gave up after 4 retries\)$/);
      expect(result.stderr).not.toContain('secret-key-0123456789abcdef');
    } finally {
      await new Promise((resolve) => unavailable.close(resolve));
    }
  });

  it('names ALERTFORM_API_KEY when the server answers 401, with a key or without one', async () => {
    const wrong = await runCli(['plan', 'examples', '--server', server.url], { env: { ALERTFORM_API_KEY: 'not-a-key-of-this-server-0123456789' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/answered 401: unknown or revoked API key\n/);
    expect(wrong.stderr).toContain('hint: the server does not know this API key: set ALERTFORM_API_KEY (or --api-key) to a key of that server (`alertform keys create` makes one there)\n');
    expect(wrong.stderr).not.toContain('not-a-key-of-this-server');
    const none = await runCli(['plan', 'examples', '--server', server.url], { env: { ALERTFORM_API_KEY: '' } });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('hint: no API key was sent: set ALERTFORM_API_KEY (or pass --api-key) to a key of that server (`alertform keys create` makes one there)\n');
  });
});
