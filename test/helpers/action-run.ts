import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one run of the Action left behind, as the runner would see it. */
export interface ActionRunResult {
  /** process.exitCode after the run: 1 when core.setFailed was called. */
  exitCode: number;
  outputs: Record<string, string>;
  summary: string;
  /** Everything written to stdout and stderr (the job log, including workflow commands). */
  log: string;
  /** The text of the plan file named by the plan-file output, if one was written. */
  planFile?: string;
}

/** The runner's files for one job: event payload, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP. */
export interface RunnerFiles {
  dir: string;
  env(extra: { eventName: string; event: unknown; inputs: Record<string, string>; env?: Record<string, string> }): Record<string, string>;
  read(): Pick<ActionRunResult, 'outputs' | 'summary' | 'planFile'>;
  cleanup(): void;
}

/** Creates fresh runner files in a temp dir. */
export function createRunnerFiles(): RunnerFiles {
  const dir = mkdtempSync(join(tmpdir(), 'alertform-runner-'));
  const output = join(dir, 'github_output');
  const summary = join(dir, 'step_summary');
  const eventPath = join(dir, 'event.json');
  return {
    dir,
    env({ eventName, event, inputs, env }) {
      writeFileSync(output, '');
      writeFileSync(summary, '');
      writeFileSync(eventPath, JSON.stringify(event));
      const vars: Record<string, string> = {
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: eventName,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_REPOSITORY: 'acme/alerts',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: '4242',
        RUNNER_TEMP: dir,
        ...env,
      };
      // The runner's naming: INPUT_ + upper case, spaces to underscores, dashes kept.
      for (const [name, value] of Object.entries(inputs)) vars[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
      return vars;
    },
    read() {
      const outputs = parseOutputFile(readFileSync(output, 'utf8'));
      const planFile = outputs['plan-file'] && existsSync(outputs['plan-file']) ? readFileSync(outputs['plan-file'], 'utf8') : undefined;
      return { outputs, summary: readFileSync(summary, 'utf8'), ...(planFile !== undefined ? { planFile } : {}) };
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Parses GITHUB_OUTPUT as @actions/core writes it: `name<<delimiter\nvalue\ndelimiter`. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!match) continue;
    const [, name, delimiter] = match;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
    outputs[name!] = value.join('\n');
  }
  return outputs;
}

/**
 * Runs fn with process.env extended by vars and stdout/stderr captured, as the runner would start the Action, then
 * restores everything (env, streams, exit code), so in-process runs do not leak into each other.
 */
export async function runInProcess(
  vars: Record<string, string>,
  files: RunnerFiles,
  fn: () => Promise<void>,
): Promise<ActionRunResult> {
  const savedEnv = { ...process.env };
  const writes: string[] = [];
  const stdoutWrite = process.stdout.write.bind(process.stdout);
  const stderrWrite = process.stderr.write.bind(process.stderr);
  const capture = (chunk: unknown) => {
    writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
    return true;
  };
  for (const name of Object.keys(process.env)) if (name.startsWith('INPUT_') || name.startsWith('GITHUB_')) delete process.env[name];
  Object.assign(process.env, vars);
  process.exitCode = undefined;
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  try {
    await fn();
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
    Object.assign(process.env, savedEnv);
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { exitCode, log: writes.join(''), ...files.read() };
}

/** A pull_request event payload, as GitHub sends it (the fields the Action reads, and a few more). */
export function pullRequestEvent(options: { number: number; baseSha: string; headSha: string }): unknown {
  return {
    action: 'synchronize',
    number: options.number,
    pull_request: {
      number: options.number,
      state: 'open',
      base: { ref: 'main', sha: options.baseSha, repo: { name: 'alerts', owner: { login: 'acme' } } },
      head: { ref: 'change-alerts', sha: options.headSha, repo: { name: 'alerts', owner: { login: 'acme' } } },
    },
    repository: { name: 'alerts', full_name: 'acme/alerts', owner: { login: 'acme' }, default_branch: 'main' },
  };
}

/** A push event payload for a commit on main. */
export function pushEvent(options: { before: string; after: string }): unknown {
  return {
    ref: 'refs/heads/main',
    before: options.before,
    after: options.after,
    repository: { name: 'alerts', full_name: 'acme/alerts', owner: { login: 'acme', name: 'acme' }, default_branch: 'main' },
    head_commit: { id: options.after, message: 'Merge pull request #7' },
  };
}
