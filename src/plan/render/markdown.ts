import { formatProblem } from '../../definitions/problems.js';
import type { Plan, PlanChange } from '../types.js';
import { isSensitive, maskValue, redactorForPlan, SENSITIVE } from '../../redact/index.js';
import { markdownCode, markdownText } from './escape.js';
import { flattenFields } from './fields.js';
import { describeChange, describeWouldMute, formatValue, MARKERS, renderSummaryLine } from './summary.js';
import { renderImpactMarkdown } from '../../impact/render-impact.js';
import { renderPreviewsMarkdown } from './previews.js';
import type { ImpactOutcome } from '../../impact/types.js';
import { shownWithImpact } from './with-impact.js';

export interface MarkdownRenderOptions {
  /** Heading text (default `alertform plan`). */
  title?: string;
  /** List unmanaged objects by name. */
  verbose?: boolean;
  /** Markdown put between the summary (always visible) and the collapsed details: the Action's changed-files table. */
  afterSummary?: string;
  /** The backtest, when one was run: its section after the warnings, its findings with the plan's. */
  impact?: ImpactOutcome;
}

/** Keeps a name from breaking out of an inline code span (or its line: see escape.ts). */
const code = (text: string) => markdownCode(text);

/**
 * The plan for a PR comment or a job summary: the summary line always visible, problems and warnings next, the
 * details collapsed, one `diff` block per change, secrets masked.
 */
export function renderPlanMarkdown(computed: Plan, options: MarkdownRenderOptions = {}): string {
  const plan = shownWithImpact(computed, options.impact);
  const out: string[] = [`### ${options.title ?? 'alertform plan'}`, '', `**${renderSummaryLine(plan)}**`, ''];
  if (plan.problems.length > 0) {
    out.push('**Errors (this plan cannot be applied):**', '');
    for (const p of plan.problems) out.push(`- ${code(formatProblem(p))}`);
    out.push('');
  }
  if (plan.warnings.length > 0) {
    for (const w of plan.warnings) out.push(`> ⚠️ ${markdownText(w)}`);
    out.push('');
  }
  if (options.impact) out.push(...renderImpactMarkdown(options.impact.impact));
  if (plan.changes.length === 0) out.push('No changes. The server matches the definitions.', '');
  // Before the details, so that a comment cut to fit GitHub's limit drops details first.
  if (options.afterSummary) out.push(options.afterSummary, '');
  if (plan.changes.length > 0) {
    out.push('<details><summary>Details</summary>', '');
    for (const change of plan.changes) out.push(...renderChange(change), '');
    out.push('</details>', '');
  }
  out.push(...renderPreviewsMarkdown(plan.previews ?? []));
  if (plan.unmanaged.length > 0) {
    out.push(`${plan.unmanaged.length} object(s) on the server are not managed here.`);
    if (options.verbose) for (const u of plan.unmanaged) out.push(`- ${u.kind} ${code(u.key)}`);
    out.push('');
  }
  // The net under the masking above: a secret value that shows up anywhere else (an unmanaged object's name).
  return redactorForPlan(plan).redact(out.join('\n'));
}

function renderChange(change: PlanChange): string[] {
  const source = change.source ? ` (${code(`${change.source.file}:${change.source.line}`)})` : '';
  const lines = [`#### ${MARKERS[change.action]} ${describeChange(change).replace(/"([^"]*)"/, (_m, name: string) => code(name))}${source}`];
  if (change.wouldMute) lines.push('', markdownText(describeWouldMute(change.wouldMute)));
  if (change.nextOccurrence) lines.push('', markdownText(change.nextOccurrence));
  const body: string[] = [];
  switch (change.action) {
    case 'create':
      for (const { path, value } of flattenFields(change.after)) body.push(`+ ${path}: ${formatValue(maskValue(change, path, value))}`);
      break;
    case 'delete':
      for (const { path, value } of flattenFields(change.before)) body.push(`- ${path}: ${formatValue(maskValue(change, path, value))}`);
      break;
    case 'update':
      for (const d of change.diffs) {
        if (isSensitive(change, d.path)) {
          body.push(`! ${d.path}: ${SENSITIVE} (changed)`);
          continue;
        }
        if (d.before !== undefined) body.push(`- ${d.path}: ${formatValue(d.before)}`);
        if (d.after !== undefined) body.push(`+ ${d.path}: ${formatValue(d.after)}`);
      }
      break;
    default:
      return lines;
  }
  // A fence longer than any backtick run inside keeps user text from closing the block.
  const longest = Math.max(2, ...body.map((l) => (l.match(/`+/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0)));
  const fence = '`'.repeat(longest + 1);
  return [...lines, `${fence}diff`, ...body, fence];
}
