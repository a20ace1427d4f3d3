import type { ChangedFiles, FileChanges } from './changed-files.js';
import { mapChangesToFiles } from './changed-files.js';
import type { ChangeAction, ChangeRef, DefinitionProblem, InvalidRun, PlannedRun } from './port.js';

const SYMBOL: Record<ChangeAction, string> = { create: '+', update: '~', delete: '-', mute: '🔇', unmute: '🔔' };
/** A file row names at most this many changes, so one file with thousands of alerts stays one short row. */
const NAMES_PER_FILE = 20;

/** Inline code that survives any name: backticks inside are swapped, pipes escaped for tables. */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|').replace(/\n/g, ' ')}\``;
}

function describeChange(change: ChangeRef): string {
  return `${SYMBOL[change.action]} ${change.kind} ${code(change.name)}`;
}

function describeChanges(changes: ChangeRef[]): string {
  if (changes.length === 0) return 'no change to the plan';
  const shown = changes.slice(0, NAMES_PER_FILE).map(describeChange);
  if (changes.length > NAMES_PER_FILE) shown.push(`and ${changes.length - NAMES_PER_FILE} more`);
  return shown.join(', ');
}

/** The heading of every comment: the path is named when it is not the repository root. */
export function planTitle(path: string): string {
  return path === '.' ? 'alertform plan' : `alertform plan for ${code(path)}`;
}

/** The "which changed file produced which change" section. */
export function renderChangedFiles(changed: ChangedFiles, changes: ChangeRef[], cwd: string): string {
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

/** The whole comment for a computed plan, uncut; the marker line carries the plan's hash. */
export function composePlanComment(options: { marker: string; run: PlannedRun; changedFiles?: string; ruleTests?: string; sha?: string }): string {
  const markdown = options.run.markdown.trim();
  const lines = markdown.split('\n');
  if (options.ruleTests) {
    const at = lines.findIndex((line) => line.startsWith('<details'));
    lines.splice(at === -1 ? lines.length : at, 0, ...(at === -1 ? [''] : []), options.ruleTests, '');
  }
  if (options.changedFiles) {
    // Between the summary (always visible) and the collapsed details, so a cut drops details first.
    const at = lines.findIndex((line) => line.startsWith('<details'));
    lines.splice(at === -1 ? lines.length : at, 0, ...(at === -1 ? [''] : []), options.changedFiles, '');
  }
  const footer = `<sub>plan hash ${code(options.run.hash)}${options.sha ? ` · commit ${options.sha.slice(0, 12)}` : ''}</sub>`;
  return [options.marker, ...lines, '', footer].join('\n');
}

/** One problem as `file:line:column  path  message`. */
export function formatProblem(problem: DefinitionProblem): string {
  const at = [problem.file, problem.line, problem.line !== undefined ? problem.column : undefined]
    .filter((part) => part !== undefined)
    .join(':');
  return [at, problem.path, problem.message].filter((part) => part).join('  ');
}

/** The comment when the definitions do not validate: every problem, with file:line. */
export function composeInvalidComment(options: { marker: string; path: string; run: InvalidRun }): string {
  const count = options.run.problems.length;
  return [
    options.marker,
    `### ${planTitle(options.path)}`,
    '',
    `**The definitions do not validate: ${count} problem${count === 1 ? '' : 's'}. Nothing can be planned until they are fixed.**`,
    '',
    '```text',
    ...options.run.problems.map((p) => formatProblem(p).replace(/```/g, "'''")),
    '```',
  ].join('\n');
}

/** The comment when planning failed for another reason (server unreachable, bad key...). */
export function composeErrorComment(options: { marker: string; path: string; message: string }): string {
  return [
    options.marker,
    `### ${planTitle(options.path)}`,
    '',
    '**The plan could not be computed.**',
    '',
    '```text',
    options.message.replace(/```/g, "'''"),
    '```',
  ].join('\n');
}
