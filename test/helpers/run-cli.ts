import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { nodeOriginalsInPlace } from './node-originals.js';
import { nodeArgsFor } from './source-entry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  /** A process of its own even where the run could share the test's (what the test proves is the process). */
  ownProcess?: boolean;
}

/**
 * Runs the CLI from the sources (the run's transpiled copy or tsx, never a stale dist/) as a user would, with its
 * own argv, env, cwd, stdin, stdout, stderr and exit code. Colours are off unless the caller's env turns them on.
 *
 * Where it can, the run happens in this worker (runCliHere), which has the CLI's modules loaded after its first run:
 * a run in a process of its own spends 0.2-0.5 s of CPU starting node and loading them, and the suite runs the CLI
 * about 260 times. The code that runs is the same, from argv to exit code; what it cannot share it gets a process
 * for (runCliProcess): `demo` and `tui` (demo starts the CLI again from process.argv, tui asks a terminal), colours
 * forced on (chalk reads the environment once), a run while another runs (two CLIs at once prove something about two
 * processes), a file that intercepts the network with nock (a user's CLI is not intercepted), and `ownProcess`.
 * ALERTFORM_TEST_CLI_PROCESS=1 gives every run a process. A command leaves nothing running when it returns (a failed
 * read gives up its other requests); what it did leave would go on in the worker where a process would have exited.
 * `serve` runs here too, for the flags it refuses and --print-config: a test that wants a running server starts one
 * with spawnServe (server-process.ts), whose logs it can read (a served process logs straight to its stderr's file
 * descriptor, which a run here does not capture).
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return canRunHere(args, options) ? runCliHere(args, options) : runCliProcess(args, options);
}

/** What a run's environment adds to the worker's: colours off unless the caller turns them on, the caller's variables. */
const envOfRun = (options: CliOptions): NodeJS.ProcessEnv => ({ NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env });

/** The CLI in a process of its own. */
export function runCliProcess(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(MAIN), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...envOfRun(options) },
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

/** Commands that start the CLI again from process.argv (demo) or need a terminal (tui). */
const NEEDS_A_PROCESS = new Set(['demo', 'tui']);
/** Global options that take a value (the command is the first word that is neither an option nor such a value). */
const VALUED_GLOBALS = new Set(['--server', '--api-key']);
let running = false;

function canRunHere(args: string[], options: CliOptions): boolean {
  if (options.ownProcess || running || process.env.ALERTFORM_TEST_CLI_PROCESS === '1') return false;
  if (options.env?.FORCE_COLOR !== undefined) return false;
  // Node's sockets and fetch as no-leftover-interception.ts kept them before any file: no nock in this worker.
  if (!nodeOriginalsInPlace()) return false;
  return !NEEDS_A_PROCESS.has(commandOf(args) ?? '');
}

function commandOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (VALUED_GLOBALS.has(args[i]!)) i++;
    else if (!args[i]!.startsWith('-')) return args[i];
  }
  return undefined;
}

/** A stdout or stderr that keeps what is written (no isTTY: the CLI sees a pipe, as in a process of its own). */
class CapturedOutput extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The CLI in this worker, given for the run what a process would have: argv, the env (the worker's plus the
 * caller's, as a child inherits it), cwd, stdin, stdout, stderr, exitCode; all put back afterwards, with any signal
 * handler the run added. One run at a time (runCli gives a second one a process).
 */
export async function runCliHere(args: string[], options: CliOptions = {}): Promise<CliResult> {
  running = true;
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const stdin = Readable.from([Buffer.from(options.input ?? '')], { objectMode: false });
  const saved = {
    argv: process.argv,
    cwd: process.cwd(),
    exitCode: process.exitCode,
    streams: Object.fromEntries((['stdin', 'stdout', 'stderr'] as const).map((name) => [name, Object.getOwnPropertyDescriptor(process, name)!])),
    listeners: new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)])),
  };
  const envChanges = envOfRun(options);
  const envBefore = new Map(Object.keys(envChanges).map((name) => [name, process.env[name]]));
  const setEnv = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
  let timer: NodeJS.Timeout | undefined;
  try {
    const { runCommandLine } = await import('../../src/cli/run.js');
    for (const [name, value] of Object.entries(envChanges)) setEnv(name, value);
    process.chdir(options.cwd ?? ROOT);
    // As a child's: commandName() tells from argv[1] how the user runs alertform.
    process.argv = [process.execPath, nodeArgsFor(MAIN).at(-1)!, ...args];
    process.exitCode = undefined;
    for (const [name, stream] of Object.entries({ stdin, stdout, stderr })) Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => stream });
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the CLI (in this worker) ran longer than ${timeoutMs} ms: alertform ${args.join(' ')} (a server to keep running? spawnServe starts one)`)), timeoutMs)));
    await Promise.race([runCommandLine(process.argv), timedOut]);
    return { code: Number(process.exitCode ?? 0), stdout: stdout.text, stderr: stderr.text };
  } finally {
    clearTimeout(timer);
    for (const [name, descriptor] of Object.entries(saved.streams)) Object.defineProperty(process, name, descriptor);
    process.exitCode = saved.exitCode;
    process.argv = saved.argv;
    process.chdir(saved.cwd);
    for (const [name, value] of envBefore) setEnv(name, value);
    for (const [signal, before] of saved.listeners) for (const listener of process.listeners(signal)) if (!before.includes(listener)) process.off(signal, listener);
    running = false;
  }
}
