import { Chalk, type ChalkInstance } from 'chalk';
import { diffWordsWithSpace } from 'diff';
import { formatProblem } from '../../definitions/problems.js';
import type { Plan, PlanChange } from '../types.js';
import { isSensitive, maskValue, redactorForPlan, SENSITIVE } from '../../redact/index.js';
import { escapeControls, escapeControlsKeepLines } from './escape.js';
import { flattenFields } from './fields.js';
import { describeChange, describeWouldMute, formatValue, MARKERS, renderSummaryLine } from './summary.js';
import { renderImpactText } from '../../impact/render-impact.js';
import { renderPreviewsText } from './previews.js';
import type { ImpactOutcome } from '../../impact/types.js';
import { shownWithImpact } from './with-impact.js';

export interface TextRenderOptions {
  /** Colours (default: off). Callers turn them on only for a TTY without NO_COLOR. */
  color?: boolean;
  /** List the names of unmanaged objects, not only their count. */
  verbose?: boolean;
  /** The backtest, when one was run (`plan --impact`): shown after the changes, its findings with the plan's. */
  impact?: ImpactOutcome;
}

/** Strings longer than this, or with line breaks, are shown as a word diff. */
const LONG_TEXT = 60;

/** The plan for a terminal: `+`/`~`/`-` markers, changed fields only, word diff of long text, the summary line. */
export function renderPlanText(computed: Plan, options: TextRenderOptions = {}): string {
  const plan = shownWithImpact(computed, options.impact);
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const lines: string[] = [];
  for (const problem of plan.problems) lines.push(c.red(`error: ${escapeControls(formatProblem(problem))}`));
  if (plan.problems.length > 0) {
    // No diff under an error: a plan that cannot be applied must not read as one that could.
    lines.push('', c.red(`No plan: ${plan.problems.length} error(s) above; fix them and plan again.`));
    return `${redactorForPlan(plan).redact(lines.join('\n'))}\n`;
  }
  if (plan.changes.length === 0) {
    lines.push(c.green('No changes. The server matches the definitions.'));
  } else {
    lines.push('alertform will perform these actions:', '');
    for (const change of plan.changes) lines.push(...renderChange(change, c), '');
  }
  if (options.impact) lines.push(...renderImpactText(options.impact.impact), '');
  lines.push(...renderPreviewsText(plan.previews ?? []));
  for (const warning of plan.warnings) lines.push(c.yellow(`warning: ${escapeControls(warning)}`));
  if (plan.unmanaged.length > 0) {
    lines.push(`${plan.unmanaged.length} object(s) on the server are not managed here${options.verbose ? ':' : ' (names with --verbose).'}`);
    if (options.verbose) for (const u of plan.unmanaged) lines.push(`  ${u.kind} "${escapeControls(u.key)}"`);
  }
  lines.push(c.bold(renderSummaryLine(plan)));
  // The net under the masking above: a secret value that shows up anywhere else (an unmanaged object's name).
  return `${redactorForPlan(plan).redact(lines.join('\n'))}\n`;
}

function colourFor(change: PlanChange, c: ChalkInstance): (text: string) => string {
  switch (change.action) {
    case 'create':
      return c.green;
    case 'delete':
      return c.red;
    default:
      return c.yellow;
  }
}

function renderChange(change: PlanChange, c: ChalkInstance): string[] {
  const colour = colourFor(change, c);
  const source = change.source ? c.dim(`  (${escapeControls(change.source.file)}:${change.source.line})`) : '';
  const lines = [`  ${colour(`${MARKERS[change.action]} ${escapeControls(describeChange(change))}`)}${source}`];
  if (change.wouldMute) lines.push(`      ${c.dim(escapeControls(describeWouldMute(change.wouldMute)))}`);
  if (change.nextOccurrence) lines.push(`      ${c.dim(escapeControls(change.nextOccurrence))}`);
  const field = (marker: string, path: string, text: string) => lines.push(`      ${marker} ${escapeControls(path)}: ${text}`);
  switch (change.action) {
    case 'create':
      for (const { path, value } of flattenFields(change.after)) field(c.green('+'), path, formatValue(maskValue(change, path, value)));
      break;
    case 'delete':
      for (const { path, value } of flattenFields(change.before)) field(c.red('-'), path, formatValue(maskValue(change, path, value)));
      break;
    case 'update':
      for (const diff of change.diffs) {
        if (isSensitive(change, diff.path)) {
          field(c.yellow('~'), diff.path, `${SENSITIVE} (changed)`);
        } else if (isLongText(diff.before) || isLongText(diff.after)) {
          field(c.yellow('~'), diff.path, renderWordDiff(String(diff.before ?? ''), String(diff.after ?? ''), c));
        } else if (diff.before === undefined) {
          field(c.green('+'), diff.path, formatValue(diff.after));
        } else if (diff.after === undefined) {
          field(c.red('-'), diff.path, formatValue(diff.before));
        } else {
          field(c.yellow('~'), diff.path, `${formatValue(diff.before)} → ${formatValue(diff.after)}`);
        }
      }
      break;
    case 'mute':
      if (change.remainingBefore !== undefined) lines.push(`      muted now for ${change.remainingBefore} more minutes`);
      break;
    case 'unmute':
      break;
  }
  return lines;
}

function isLongText(value: unknown): boolean {
  return typeof value === 'string' && (value.length > LONG_TEXT || value.includes('\n'));
}

/** Removed words as `[-old-]`, added as `{+new+}` (and red/green with colours), the rest as it is. */
export function renderWordDiff(before: string, after: string, c: ChalkInstance): string {
  const text = diffWordsWithSpace(before, after)
    .map((part) => {
      const value = escapeControlsKeepLines(part.value);
      return part.added ? c.green(`{+${value}+}`) : part.removed ? c.red(`[-${value}-]`) : value;
    })
    .join('');
  return text.includes('\n') ? `\n${text.split('\n').map((l) => `          ${l}`).join('\n')}` : text;
}
