import type { MessagePreview } from '../preview.js';
import { escapeControls, escapeControlsKeepLines, markdownCode } from './escape.js';

/** A body's closing line breaks say nothing on screen. */
const trimEnd = (text: string) => text.replace(/\s+$/, '');

/** Who a preview is for, in words: `slack "ops" with a sample alert`, `pagerduty "pd" for alert "CPU"`. */
function heading(preview: MessagePreview): string {
  const whose = preview.subject === 'sample' ? 'with a sample alert' : `for alert "${preview.alert}"`;
  return `${preview.type} "${preview.channel}" ${whose}`;
}

/** The previews for a terminal: title on one line, the body indented below it, control characters made inert. */
export function renderPreviewsText(previews: readonly MessagePreview[]): string[] {
  if (previews.length === 0) return [];
  const lines = ['What the templated messages will say:', ''];
  for (const preview of previews) {
    lines.push(`  ${escapeControls(heading(preview))}:`);
    lines.push(`      title: ${escapeControls(preview.title)}`);
    lines.push('      body:');
    for (const line of escapeControlsKeepLines(trimEnd(preview.body)).split('\n')) lines.push(line ? `        ${line}` : '');
    lines.push('');
  }
  return lines;
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The previews for a PR comment: collapsed, each a heading line and a fenced block (markdown in it is shown as is). */
export function renderPreviewsMarkdown(previews: readonly MessagePreview[]): string[] {
  if (previews.length === 0) return [];
  const out = ['<details><summary>What the templated messages will say</summary>', ''];
  for (const preview of previews) {
    const text = escapeControlsKeepLines(`${preview.title}\n\n${trimEnd(preview.body)}`);
    const fence = fenceFor(text);
    out.push(`${markdownCode(preview.type)} ${markdownCode(preview.channel)} ${preview.subject === 'sample' ? 'with a sample alert' : `for alert ${markdownCode(preview.alert)}`}:`, '');
    out.push(`${fence}text`, text, fence, '');
  }
  out.push('</details>', '');
  return out;
}
