import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliHere, runCliProcess, type CliOptions } from '../../helpers/run-cli.js';

// The suite runs most CLI commands in its worker instead of a process of their own (test/helpers/run-cli.ts). That
// is only sound if a run there is the run a user gets: the same output and exit code, and the worker as it was.

const scratch = () => mkdtempSync(join(tmpdir(), 'af-in-worker-'));

/** Both ways, one after the other, with the worker's state compared before and after the in-worker run. */
async function bothWays(args: string[], options: CliOptions = {}, ownOptions: CliOptions = options) {
  const before = { cwd: process.cwd(), argv: [...process.argv], env: { ...process.env }, exitCode: process.exitCode, stdout: process.stdout, sigint: process.listenerCount('SIGINT') };
  const here = await runCliHere(args, options);
  expect({ cwd: process.cwd(), argv: process.argv, env: { ...process.env }, exitCode: process.exitCode, stdout: process.stdout, sigint: process.listenerCount('SIGINT') }).toEqual(before);
  const own = await runCliProcess(args, ownOptions);
  return { here, own };
}

describe('a CLI run in the test worker', { timeout: 60_000 }, () => {
  it('prints and exits as a run in its own process, for success, a usage error, an invalid project and --json failures', async () => {
    const invalid = scratch();
    writeFileSync(join(invalid, 'a.yaml'), 'alerts:\n  - name: x\n');
    for (const args of [['validate', 'examples'], ['--json', 'validate', 'examples'], ['plan', '.', '--bogus'], ['validate', invalid], ['--json', 'validate', invalid], ['--json', 'validate', join(invalid, 'missing')], ['completion', 'fish'], ['mute', '--help']]) {
      const { here, own } = await bothWays(args);
      expect(here, args.join(' ')).toEqual(own);
    }
  });

  it('runs in the given directory with the given environment, and names the command as a user runs it', async () => {
    const [dir, ownDir] = [scratch(), scratch()];
    const env = { ALERTFORM_URL: 'http://127.0.0.1:9' };
    const { here, own } = await bothWays(['init', 'repo'], { cwd: dir, env }, { cwd: ownDir, env });
    expect(here.code).toBe(0);
    // init prints how to run alertform next: from argv, as in a process of its own.
    expect(here.stdout).toContain('alertform validate repo');
    expect(here).toEqual(own);
    expect(readFileSync(join(dir, 'repo', 'alertform.yaml'), 'utf8')).toBe(readFileSync(join(ownDir, 'repo', 'alertform.yaml'), 'utf8'));
  });

  it('announces a retried server in each run, not once per worker', async () => {
    let asked = 0;
    const server = createServer((_req, res) => {
      asked += 1;
      res.writeHead(503, { 'retry-after': '0' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://a-key-that-is-long-enough-0123@127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = await runCliHere(['status', '--server', url]);
      const second = await runCliHere(['status', '--server', url]);
      expect(asked).toBeGreaterThan(2);
      expect(second.code).toBe(first.code);
      for (const run of [first, second]) {
        expect(run.code).not.toBe(0);
        expect(run.stderr).toMatch(/retrying \(up to \d+ times per request\)/);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
