import chalk from 'chalk';
import type { FileRoot } from './root.js';
import { formatCommand, type CommandRunner } from './runner.js';
import type { Output } from './output.js';
import { AlertformError } from '../model/errors.js';

/** What a step would do, as dry-run prints it. Paths are the real ones (under the root). */
export type StepPreview =
  | { kind: 'run'; argv: string[] }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'copy'; from: string; to: string }
  | { kind: 'download'; url: string; path: string }
  | { kind: 'mkdir'; path: string }
  | { kind: 'keep'; path: string };

/** One change to the host. Checks (key, platform) are not Steps: they run in dry-run too. */
export interface Step {
  title: string;
  preview: StepPreview;
  /** Does it; the returned text is shown next to the mark. Throws on failure with a reason a person can act on. */
  run(): Promise<string | void>;
  /** How a person undoes it once done (shown after a later failure). */
  undo?: string;
  /** Needs root on Linux. */
  privileged: boolean;
}

/** A command as a step: a non-zero exit fails it with the command's last output lines. */
export function commandStep(runner: CommandRunner, argv: string[], options: { undo?: string; privileged?: boolean; title?: string } = {}): Step {
  return {
    title: options.title ?? formatCommand(argv),
    preview: { kind: 'run', argv },
    privileged: options.privileged ?? true,
    undo: options.undo,
    async run() {
      const result = await runner.run(argv);
      if (result.code !== 0) throw new Error(`exit ${result.code}${lastLines(result.stderr || result.stdout)}`);
    },
  };
}

/** Writes a file atomically; `undo` says how to put things back. */
export function writeStep(root: FileRoot, path: string, content: string, options: { undo: string; privileged?: boolean; mode?: number }): Step {
  return {
    title: `write ${root.resolve(path)}`,
    preview: { kind: 'write', path: root.resolve(path), content },
    privileged: options.privileged ?? true,
    undo: options.undo,
    run: () => root.writeAtomic(path, content, options.mode),
  };
}

export function copyStep(root: FileRoot, from: string, to: string, options: { undo: string; privileged?: boolean }): Step {
  return {
    title: `back up ${root.resolve(from)} to ${root.resolve(to)}`,
    preview: { kind: 'copy', from: root.resolve(from), to: root.resolve(to) },
    privileged: options.privileged ?? true,
    undo: options.undo,
    run: () => root.copy(from, to),
  };
}

export function downloadStep(runner: CommandRunner, root: FileRoot, url: string, path: string, options: { privileged?: boolean } = {}): Step {
  return {
    title: `download ${url}`,
    preview: { kind: 'download', url, path: root.resolve(path) },
    privileged: options.privileged ?? true,
    undo: `rm ${root.resolve(path)}`,
    run: () => runner.download(url, path, root),
  };
}

export function mkdirStep(root: FileRoot, path: string): Step {
  return {
    title: `create ${root.resolve(path)}`,
    preview: { kind: 'mkdir', path: root.resolve(path) },
    privileged: true,
    undo: `rmdir ${root.resolve(path)}   (if empty)`,
    run: () => root.mkdir(path),
  };
}

function lastLines(text: string): string {
  const lines = text.trim().split('\n').filter(Boolean).slice(-5);
  return lines.length ? `: ${lines.join(' | ')}` : '';
}

/** A step's outcome, as the summary and --json report it. */
export interface StepRecord {
  title: string;
  status: 'ok' | 'failed' | 'skipped';
  ms: number;
  detail?: string;
  /** True for steps that changed the host (not checks). */
  change?: boolean;
  undo?: string;
}

/** Thrown when a step fails: the flow turns it into the failure report. */
export class StepFailure extends AlertformError {
  constructor(
    readonly step: string,
    readonly reason: string,
  ) {
    super('agent_step_failed', `${step}: ${reason}`);
  }
}

/**
 * Runs steps one by one and shows each with a mark and its time. In a terminal the running step is shown and
 * then replaced by its result. Ctrl-C (`cancel()`) stops before the next step; a step never stops half-way.
 */
export class Progress {
  readonly records: StepRecord[] = [];
  private cancelled = false;

  constructor(
    private readonly output: Output,
    private readonly quiet: boolean,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }

  async step<T>(title: string, work: () => Promise<T>, options: { undo?: string; change?: boolean; detail?: (value: T) => string | undefined } = {}): Promise<T> {
    if (this.cancelled) {
      this.records.push({ title, status: 'failed', ms: 0, detail: 'cancelled' });
      throw new StepFailure(title, 'cancelled (Ctrl-C) before this step started');
    }
    const live = this.output.live && !this.quiet;
    if (live) this.output.out(`  ${this.paint('cyan', '…')} ${title}`);
    const started = performance.now();
    try {
      const value = await work();
      const ms = Math.round(performance.now() - started);
      const detail = options.detail?.(value) ?? (typeof value === 'string' ? value : undefined);
      this.records.push({
        title,
        status: 'ok',
        ms,
        ...(detail ? { detail } : {}),
        ...(options.change ? { change: true } : {}),
        ...(options.undo ? { undo: options.undo } : {}),
      });
      this.print(live, 'ok', title, ms, detail);
      return value;
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      const reason = error instanceof StepFailure ? error.reason : error instanceof Error ? error.message : String(error);
      this.records.push({ title, status: 'failed', ms, detail: reason });
      this.print(live, 'failed', title, ms);
      throw new StepFailure(title, reason);
    }
  }

  skip(title: string, why: string): void {
    this.records.push({ title, status: 'skipped', ms: 0, detail: why });
    this.print(false, 'skipped', title, 0, why);
  }

  /** The steps that changed something (some of them have an undo). */
  changes(): StepRecord[] {
    return this.records.filter((record) => record.status === 'ok' && record.change === true);
  }

  private print(live: boolean, status: StepRecord['status'], title: string, ms: number, detail?: string) {
    if (this.quiet) return;
    const mark = status === 'ok' ? this.paint('green', '✔') : status === 'failed' ? this.paint('red', '✖') : this.paint('gray', '-');
    const time = status === 'skipped' ? '' : ` ${this.paint('gray', `(${formatMs(ms)})`)}`;
    const suffix = detail ? `: ${detail}` : '';
    this.output.out(`${live ? '\r\x1b[K' : ''}  ${mark} ${title}${suffix}${time}\n`);
  }

  private paint(color: 'green' | 'red' | 'gray' | 'cyan', text: string): string {
    return this.output.color ? chalk[color](text) : text;
  }
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}
