import chalk from 'chalk';
import { AgentInputError, type AgentContext, type FlowResult } from './context.js';
import { formatCommand } from './runner.js';
import { Progress, StepFailure, type Step, type StepPreview } from './steps.js';
import { CarbonError } from './carbon.js';
import { PluginError } from './plugins.js';
import { PlatformError } from './platform.js';
import { ConfigFormatError } from './key-fields.js';

/** A step preview as one JSON-friendly object. */
export function previewJson(preview: StepPreview): Record<string, unknown> {
  return preview.kind === 'run' ? { kind: 'run', command: formatCommand(preview.argv) } : { ...preview };
}

/** Prints what a dry run would do: every command and every file with its whole content. */
export function printDryRun(context: AgentContext, steps: readonly Step[]): void {
  if (context.json) return;
  const { output } = context;
  output.out(`\ndry run: nothing was changed. These steps would run:\n`);
  steps.forEach((step, index) => {
    const preview = step.preview;
    const number = `${index + 1}.`.padEnd(4);
    switch (preview.kind) {
      case 'run':
        output.out(`  ${number}run       ${formatCommand(preview.argv)}\n`);
        break;
      case 'mkdir':
        output.out(`  ${number}mkdir     ${preview.path}\n`);
        break;
      case 'keep':
        output.out(`  ${number}keep      ${preview.path} (put back if the package manager moves it)\n`);
        break;
      case 'download':
        output.out(`  ${number}download  ${preview.url}\n            to ${preview.path}\n`);
        break;
      case 'copy':
        output.out(`  ${number}copy      ${preview.from}\n            to ${preview.to}\n`);
        break;
      case 'write': {
        output.out(`  ${number}write     ${preview.path} (${Buffer.byteLength(preview.content)} bytes):\n`);
        const body = preview.content.endsWith('\n') ? preview.content.slice(0, -1) : preview.content;
        output.out(`${body.split('\n').map((line) => `            | ${line}`).join('\n')}\n`);
        break;
      }
    }
  });
}

/**
 * Ends a flow that failed: the failed step and why, what was already done, how to undo it; no success summary
 * follows. Input errors (before any step) are reported the same way, with nothing done.
 */
export function reportFailure(context: AgentContext, progress: Progress, error: unknown, base: Record<string, unknown>): FlowResult {
  const known = error instanceof StepFailure || error instanceof AgentInputError || error instanceof CarbonError ||
    error instanceof PluginError || error instanceof PlatformError || error instanceof ConfigFormatError;
  if (!known) throw error;
  const failed = error instanceof StepFailure ? { step: error.step, reason: error.reason } : { step: 'check the options', reason: error.message };
  const changes = progress.changes();
  const report = {
    ...base,
    ok: false,
    failed,
    steps: progress.records,
    done: changes.map((record) => record.title),
    undo: changes.flatMap((record) => (record.undo ? [record.undo] : [])).reverse(),
  };
  if (context.json) {
    printJson(context, report);
  } else {
    const red = (text: string) => (context.output.color ? chalk.red(text) : text);
    const lines = [`\n${red('✖ failed:')} ${failed.step}`, `  why: ${failed.reason}`];
    if (changes.length === 0) {
      lines.push('  already done: nothing; the host was not changed');
    } else {
      lines.push('  already done:', ...changes.map((record) => `    ${record.title}`));
      const undo = changes.flatMap((record) => (record.undo ? [`    ${record.undo}`] : [])).reverse();
      lines.push(...(undo.length ? ['  to undo it, run:', ...undo] : ['  nothing of it needs undoing']));
    }
    context.output.err(`${lines.join('\n')}\n`);
  }
  return { ok: false, exitCode: 1, report };
}

/** The version of the agent commands' JSON reports, as every `--json` output of the CLI carries it. */
export const AGENT_REPORT_FORMAT_VERSION = 1;

/** Prints a report under --json: one object, formatVersion first. */
export function printJson(context: AgentContext, report: Record<string, unknown>): void {
  if (context.json) context.output.out(`${JSON.stringify({ formatVersion: AGENT_REPORT_FORMAT_VERSION, ...report }, null, 2)}\n`);
}
