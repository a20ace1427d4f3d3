import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './until.js';

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

/** What the package is built from: a change to any of these makes a new tarball. */
const PACKAGE_INPUTS = ['src', 'bin', 'console', 'schemas', 'examples', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE'];

function hashOfPackageInputs(): string {
  const hash = createHash('sha256');
  for (const input of PACKAGE_INPUTS) {
    const path = join(ROOT, input);
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory() ? readdirSync(path, { recursive: true, encoding: 'utf8' }).map((name) => join(input, name)).sort() : [input];
    for (const file of files) {
      if (!statSync(join(ROOT, file)).isFile()) continue;
      hash.update(file).update('\0').update(readFileSync(join(ROOT, file))).update('\0');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * `npm pack` of this repository (prepack and prepare build dist/), copied into `dir`; returns the copy's path.
 * One pack per state of the sources, shared by every test file that installs the package: each pack compiles
 * dist/ afresh (a minute of CPU here), and two packs at once would empty and rebuild the same dist/ under each
 * other. The tarball is kept in the temp dir under a hash of PACKAGE_INPUTS; whoever takes the lock packs, the
 * others wait for its tarball (or take over if its process died).
 */
export async function packTarball(dir: string): Promise<string> {
  const cache = join(tmpdir(), `alertform-pack-${hashOfPackageInputs()}`);
  const lock = join(cache, 'lock');
  const made = join(cache, 'tarball'); // the tarball's name, written once it is complete
  await mkdir(cache, { recursive: true });
  for (;;) {
    if (existsSync(made)) break;
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
    } catch {
      // Another process is packing: wait for its tarball, or take its place if it died.
      const owner = Number(readFileSync(lock, 'utf8') || 0);
      await until(async () => existsSync(made) || (owner > 0 && !isAlive(owner)), (over) => over, 600_000, 200);
      if (!existsSync(made)) await rm(lock, { force: true });
      continue;
    }
    try {
      const result = await runCommand('npm', ['pack', '--json', '--pack-destination', cache], { cwd: ROOT, env: userEnv(), timeoutMs: 300_000 });
      if (result.code !== 0) throw new Error(`npm pack failed (${result.code}): ${result.stderr}`);
      const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as [{ filename: string }];
      await writeFile(`${made}.tmp`, info.filename);
      await rename(`${made}.tmp`, made);
    } finally {
      await rm(lock, { force: true });
    }
  }
  const filename = readFileSync(made, 'utf8');
  await mkdir(dir, { recursive: true });
  await copyFile(join(cache, filename), join(dir, filename));
  return join(dir, filename);
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
