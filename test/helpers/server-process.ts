import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { nodeArgsFor } from './source-entry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** A process started by spawnNodeServer: where it listens, and how to stop it. */
export interface NodeServerProcess {
  /** http://127.0.0.1:PORT, as the process printed it. */
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
  /** SIGKILL: no shutdown hook runs, exactly like a crash or an OOM kill. */
  kill(): Promise<number | string>;
  /** SIGTERM, then SIGKILL after 5 s if it is still there. */
  stop(): Promise<number | string>;
  /** What the process wrote to stderr so far (logs, errors), for failure messages. */
  stderr(): string;
}

/** A running `alertform serve` child process with the key it was started with. */
export interface ServeProcess extends NodeServerProcess {
  key: string;
  /** The Authorization header of `key`. */
  authorization: string;
}

/** One JSON request to a served process with its key: the status and the parsed body. */
export async function callServe(server: ServeProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: server.authorization, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/**
 * Spawns a Node process running `entry` (a .ts file: source-entry.ts says how) with `args`, and waits until it prints a line
 * containing `http://HOST:PORT`. Every server in a benchmark or a crash test runs this way, so that the server and
 * its baseline share one process layout.
 */
export async function spawnNodeServer(
  entry: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; startTimeoutMs?: number; discardStderr?: boolean } = {},
): Promise<NodeServerProcess> {
  const child = spawn(process.execPath, [...nodeArgsFor(entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    // A benchmark discards the request log, as a service manager writing it to a file would cost the parent nothing.
    stdio: ['ignore', 'pipe', options.discardStderr ? 'ignore' : 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Keep only the tail: a benchmark's request log would otherwise grow without bound.
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not print its URL within ${options.startTimeoutMs ?? 30_000} ms: ${stderr}`));
    }, options.startTimeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /http:\/\/[\w.[\]:-]+:\d+/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        // The request log (pino writes to stdout) is drained from here on, not kept: a benchmark's parent process
        // also drives the load, and must not spend its CPU on the server's log.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        stdout = '';
        resolve(match[0]);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited (${code}) before listening: ${stderr}`));
    });
  });
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    return exited;
  };
  return {
    url,
    pid: child.pid!,
    child,
    exited,
    kill: () => signal('SIGKILL'),
    async stop() {
      const timer = setTimeout(() => signal('SIGKILL'), 5_000);
      try {
        return await signal('SIGTERM');
      } finally {
        clearTimeout(timer);
      }
    },
    stderr: () => stderr,
  };
}

/**
 * Starts `alertform serve` from the sources as a real child process on 127.0.0.1, port 0, with a database file
 * and one API key (random unless given). Logs at `logLevel` (default warn) so that a long run does not fill pipes.
 */
export async function spawnServe(options: {
  db: string;
  key?: string;
  logLevel?: string;
  extraArgs?: string[];
  discardStderr?: boolean;
  /** More environment variables of the process. */
  env?: NodeJS.ProcessEnv;
}): Promise<ServeProcess> {
  const key = options.key ?? randomBytes(24).toString('base64url');
  const started = await spawnNodeServer(
    MAIN,
    // Tests write the points they judge, complete: no settle delay unless extraArgs asks for one (the last wins).
    ['serve', '--host', '127.0.0.1', '--port', '0', '--db', options.db, '--api-key', key, '--settle-delay', '0', ...(options.extraArgs ?? [])],
    { env: { ALERTFORM_LOG_LEVEL: options.logLevel ?? 'warn', ...options.env }, discardStderr: options.discardStderr ?? false },
  );
  return { ...started, key, authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
}
