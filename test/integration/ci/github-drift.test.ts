import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { writeDefinitionsDir } from '../../helpers/definitions-dir.js';
import { cliScript } from '../../helpers/source-entry.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// examples/workflows/alertform-drift.yml's step, run as the runner runs a `run:` (bash -e), with `alertform` on
// PATH, against our real server and a stand-in for GitHub's issues API on 127.0.0.1 (the CLI is a child process:
// nock cannot reach it).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const workflow = parse(readFileSync(join(ROOT, 'examples/workflows/alertform-drift.yml'), 'utf8'));
const step = workflow.jobs.drift.steps.find((s: { run?: string }) => s.run?.includes('alertform plan')) as { run: string };
const TOKEN = 'ghs_fake_token_0123456789';

interface Issue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: string[];
}

/** GET/POST /repos/acme/alerts/issues and PATCH .../issues/N, the calls the drift step makes. */
async function startFakeGitHub(): Promise<{ url: string; issues: Issue[]; server: Server }> {
  const issues: Issue[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (!/^(token|bearer) /i.test(req.headers.authorization ?? '') || !req.headers.authorization!.endsWith(TOKEN)) return send(401, { message: 'Bad credentials' });
      const item = /^\/repos\/acme\/alerts\/issues\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/repos/acme/alerts/issues' && req.method === 'GET') return send(200, issues.filter((i) => i.state === url.searchParams.get('state')));
      if (url.pathname === '/repos/acme/alerts/issues' && req.method === 'POST') {
        const body = JSON.parse(text) as { title: string; body: string; labels?: string[] };
        const issue: Issue = { number: issues.length + 1, title: body.title, body: body.body, labels: body.labels ?? [], state: 'open' };
        issues.push(issue);
        return send(201, issue);
      }
      if (item && req.method === 'PATCH') {
        const issue = issues.find((i) => i.number === Number(item[1]));
        if (!issue) return send(404, { message: 'Not Found' });
        Object.assign(issue, JSON.parse(text));
        return send(200, issue);
      }
      send(404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, issues, server };
}

describe('the GitHub drift-check example', { timeout: 180_000 }, () => {
  let alertform: TestServer;
  let github: Awaited<ReturnType<typeof startFakeGitHub>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const runStep = () =>
    new Promise<{ code: number; output: string }>((resolve, reject) => {
      const child = spawn('bash', ['-e', '-c', step.run], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, output }));
    });

  beforeAll(async () => {
    alertform = await startTestServer();
    github = await startFakeGitHub();
    dir = mkdtempSync(join(tmpdir(), 'af-gh-drift-'));
    writeDefinitionsDir(dir, { alerts: 1, channels: 1, schedules: 0 });
    const bin = join(dir, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'alertform'), cliScript());
    chmodSync(join(bin, 'alertform'), 0o755);
    env = {
      PATH: `${bin}:${process.env.PATH}`,
      RUNNER_TEMP: mkdtempSync(join(tmpdir(), 'af-runner-')),
      ALERTFORM_URL: alertform.url,
      ALERTFORM_API_KEY: alertform.key,
      GITHUB_TOKEN: TOKEN,
      GITHUB_REPOSITORY: 'acme/alerts',
      GITHUB_API_URL: github.url,
    };
  });
  afterAll(async () => {
    await alertform?.close();
    await new Promise((resolve) => github?.server.close(resolve));
  });

  it('opens one issue while the server differs from git, fails the run, and closes it once they match', async () => {
    const drift = await runStep();
    expect(drift.code).toBe(2);
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]).toMatchObject({ state: 'open', title: 'alertform: the server differs from git', labels: ['alertform-drift'] });
    expect(github.issues[0]!.body).toContain('2 to create');
    expect(github.issues[0]!.body).not.toContain(alertform.key);

    expect((await runStep()).code).toBe(2);
    expect(github.issues).toHaveLength(1);

    const applied = await new Promise<number>((resolve) =>
      spawn('alertform', ['apply', '.', '--auto-approve'], { cwd: dir, env: { ...process.env, ...env }, stdio: 'ignore' }).on('close', (code) => resolve(code ?? -1)),
    );
    expect(applied).toBe(0);
    const clean = await runStep();
    expect(clean.code).toBe(0);
    expect(clean.output).toContain('Closed issue #1');
    expect(github.issues[0]).toMatchObject({ state: 'closed' });
  });
});
