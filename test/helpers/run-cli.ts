import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeArgsFor } from './source-entry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI from the sources (the run's transpiled copy or tsx, never a stale dist/) as a user would: a separate
 * process with its own argv, env and cwd. Colours are off unless the caller's env turns them on.
 */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(MAIN), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    // A command that exits without reading its input closes the pipe first: EPIPE then says nothing about the run
    // (its exit code and output do), and left unhandled it would fail the whole test run.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
