import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: none of npm's script variables (they point at this repository) nor ours. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|ALERTFORM_|INIT_CWD$|VITEST|NODE_OPTIONS$)/i.test(name)) env[name] = value;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs a command to its end; never rejects on a non-zero exit (the caller asserts the code). */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? userEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
    // A command that exits without reading its input closes the pipe first: EPIPE then says nothing about the run
    // (its exit code and output do), and left unhandled it would fail the whole test run.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** `npm pack` of this repository (prepack and prepare build dist/) into `dir`; returns the tarball's path. */
export async function packTarball(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const result = await runCommand('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, env: userEnv(), timeoutMs: 300_000 });
  if (result.code !== 0) throw new Error(`npm pack failed (${result.code}): ${result.stderr}`);
  const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as [{ filename: string }];
  return join(dir, info.filename);
}

/** A long-running command (a server): resolves once it printed an http:// URL on stdout. */
export interface StartedProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | string>;
}

export async function startUntilUrl(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<StartedProcess> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} printed no URL in time: ${stdout}${output}`));
    }, options.timeoutMs ?? 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      output = (output + chunk.toString()).slice(-20_000);
      const match = /http:\/\/[\w.[\]:-]+:\d+/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before printing a URL: ${stdout}${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
