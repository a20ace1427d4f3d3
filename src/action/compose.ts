import type { ChangedFiles, FileChanges } from './changed-files.js';
import { mapChangesToFiles } from './changed-files.js';
import { formatProblem, type Problem } from '../definitions/problems.js';
import type { Plan, PlanChange } from '../plan/types.js';
import type { ImpactOutcome } from '../impact/types.js';
import { escapeControls, escapeControlsKeepLines, markdownCode } from '../plan/render/escape.js';
import { renderPlanMarkdown } from '../plan/render/markdown.js';
import { displayKey } from '../redact/index.js';

const SYMBOL: Record<PlanChange['action'], string> = { create: '+', update: '~', delete: '-', mute: '🔇', unmute: '🔔' };
/** A file row names at most this many changes, so one file with thousands of alerts stays one short row. */
const NAMES_PER_FILE = 20;

/** Inline code that survives any name: backticks inside are swapped, pipes escaped for tables. */
function code(text: string): string {
  return markdownCode(text, { table: true, backtick: "'" });
}

function describeChange(change: PlanChange): string {
  return `${SYMBOL[change.action]} ${change.kind} ${code(displayKey(change))}`;
}

function describeChanges(changes: PlanChange[]): string {
  if (changes.length === 0) return 'no change to the plan';
  const shown = changes.slice(0, NAMES_PER_FILE).map(describeChange);
  if (changes.length > NAMES_PER_FILE) shown.push(`and ${changes.length - NAMES_PER_FILE} more`);
  return shown.join(', ');
}

/** The heading of every comment: the path is named when it is not the repository root. */
export function planTitle(path: string): string {
  return path === '.' ? 'alertform plan' : `alertform plan for ${code(path)}`;
}

/** The "which changed file produced which change" section, from the plan's changes and their source files. */
export function renderChangedFiles(changed: ChangedFiles, changes: readonly PlanChange[], cwd: string): string {
  if (!changed.ok) return `#### Changed files\n\n_Unknown: ${changed.reason}._`;
  const { files, unexplained } = mapChangesToFiles(changed, changes, cwd);
  const relevant: FileChanges[] = files.filter((f) => f.changes.length > 0 || /\.ya?ml$/.test(f.file));
  const lines = ['#### Changed files', ''];
  if (relevant.length === 0) lines.push('_This pull request changes no definitions file._');
  else {
    lines.push('| File | Changes |', '|---|---|');
    for (const f of relevant) lines.push(`| ${code(f.file)} | ${describeChanges(f.changes)} |`);
  }
  if (unexplained.length > 0) {
    lines.push('', `Not from a file this pull request changed (deletions, or drift on the server): ${describeChanges(unexplained)}`);
  }
  return lines.join('\n');
}

/**
 * The whole comment for a computed plan, uncut, composed from the Plan: the marker line (carrying the plan's
 * hash), the rendered plan with the rule tests' results and the changed-files table between its summary and its
 * collapsed details (so a cut drops details first), a footer.
 */
export function composePlanComment(options: {
  marker: string;
  path: string;
  plan: Plan;
  /** The backtest, carried beside the plan (the Action's plan with a Graphite). */
  impact?: ImpactOutcome;
  hash: string;
  changedFiles?: string;
  ruleTests?: string;
  sha?: string;
}): string {
  const afterSummary = [options.ruleTests, options.changedFiles].filter((part) => part).join('\n\n');
  const markdown = renderPlanMarkdown(options.plan, {
    title: planTitle(options.path),
    ...(afterSummary ? { afterSummary } : {}),
    ...(options.impact ? { impact: options.impact } : {}),
  }).trim();
  const footer = `<sub>plan hash ${code(options.hash)}${options.sha ? ` · commit ${options.sha.slice(0, 12)}` : ''}</sub>`;
  return [options.marker, markdown, '', footer].join('\n');
}

/** The comment when the definitions do not validate: every problem, as `file:line:column  path  message`. */
export function composeInvalidComment(options: { marker: string; path: string; problems: readonly Problem[] }): string {
  const count = options.problems.length;
  return [
    options.marker,
    `### ${planTitle(options.path)}`,
    '',
    `**The definitions do not validate: ${count} problem${count === 1 ? '' : 's'}. Nothing can be planned until they are fixed.**`,
    '',
    '```text',
    ...options.problems.map((p) => escapeControls(formatProblem(p)).replace(/```/g, "'''")),
    '```',
  ].join('\n');
}

/** The comment when planning failed for another reason (server unreachable, bad key, no server named...). */
export function composeErrorComment(options: { marker: string; path: string; message: string }): string {
  return [
    options.marker,
    `### ${planTitle(options.path)}`,
    '',
    '**The plan could not be computed.**',
    '',
    '```text',
    escapeControlsKeepLines(options.message).replace(/```/g, "'''"),
    '```',
  ].join('\n');
}
