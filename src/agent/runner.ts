import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import type { FileRoot } from './root.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Every external effect of the installer that is not a file write under the root: commands and downloads.
 * The real one spawns processes and fetches; the recording one (tests, `ALERTFORM_AGENT_RUNNER=record:FILE`)
 * only writes down what it was asked, so tests can assert exact commands without root.
 */
export interface CommandRunner {
  /** Runs argv without a shell. A command that is not found answers code 127, never throws. */
  run(argv: readonly string[]): Promise<CommandResult>;
  /** Downloads url to a host path (through the root), atomically. */
  download(url: string, path: string, root: FileRoot): Promise<void>;
  /** True when nothing really runs (recording runner): privileges are then not needed. */
  readonly simulated: boolean;
}

/** The runner of a real host. */
export function createProcessRunner(): CommandRunner {
  return {
    simulated: false,
    run(argv) {
      const [command, ...args] = argv;
      if (!command) return Promise.resolve({ code: 127, stdout: '', stderr: 'empty command' });
      return new Promise((resolve) => {
        const child = spawn(command, args, {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        });
        let stdout = '';
        let stderr = '';
        // Keep the tail only: apt and dnf can be chatty, and only the end explains a failure.
        child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-64_000)));
        child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-64_000)));
        child.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ code: error.code === 'ENOENT' ? 127 : 126, stdout, stderr: `${command}: ${error.message}` }),
        );
        child.on('close', (code, signal) =>
          resolve({ code: code ?? 128, stdout, stderr: signal ? `${stderr}\nkilled by ${signal}` : stderr }),
        );
      });
    },
    async download(url, path, root) {
      const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
      await root.writeAtomic(path, new Uint8Array(await response.arrayBuffer()));
    },
  };
}

/** A scripted answer of the recording runner; unmatched commands succeed with empty output. */
export type Responder = (argv: readonly string[]) => Partial<CommandResult> | undefined;

export interface RecordingRunner extends CommandRunner {
  /** Each command as one line (`formatCommand`), downloads as `download URL -> PATH`. */
  readonly calls: string[];
}

/** A runner that runs nothing: it records each call, optionally to a file too, and answers from `respond`. */
export function createRecordingRunner(respond: Responder = () => undefined, logFile?: string): RecordingRunner {
  const calls: string[] = [];
  const record = (line: string) => {
    calls.push(line);
    if (logFile) appendFileSync(logFile, `${line}\n`);
  };
  return {
    simulated: true,
    calls,
    async run(argv) {
      record(formatCommand(argv));
      return { code: 0, stdout: '', stderr: '', ...respond(argv) };
    },
    async download(url, path, root) {
      record(`download ${url} -> ${root.resolve(path)}`);
    },
  };
}

/** The runner for this process: `ALERTFORM_AGENT_RUNNER=record:FILE` records to FILE (for tests), else real. */
export function runnerFromEnv(env: NodeJS.ProcessEnv = process.env): CommandRunner {
  const setting = env.ALERTFORM_AGENT_RUNNER;
  if (setting?.startsWith('record:')) return createRecordingRunner(() => undefined, setting.slice('record:'.length));
  return createProcessRunner();
}

/** A command line as a user would type it: words with shell-special characters are single-quoted. */
export function formatCommand(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
