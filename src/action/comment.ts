/**
 * The PR comment: a hidden marker that finds it again (and carries the reviewed plan's hash), the markdown, and
 * the cut that keeps it under GitHub's limit. Pure functions only; posting lives in github.ts.
 */

/** GitHub refuses issue comments of 65,536 characters or more. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/** What a marker says: the plan's hash (or `invalid` / `error`) and the definitions path it was computed for. */
export interface CommentMarker {
  hash: string;
  path: string;
}

const MARKER_PATTERN = /<!-- alertform-plan hash=([A-Za-z0-9_-]+) path=(\S+) -->/;

/**
 * The hidden first line of our comment. The path is part of it so that two steps planning two directories of the
 * same PR keep one comment each instead of overwriting each other's.
 */
export function formatMarker(marker: CommentMarker): string {
  return `<!-- alertform-plan hash=${marker.hash} path=${encodeURIComponent(marker.path)} -->`;
}

/** Reads our marker out of a comment body; undefined for any other comment. */
export function parseMarker(body: string | null | undefined): CommentMarker | undefined {
  const match = MARKER_PATTERN.exec(body ?? '');
  if (!match?.[1] || !match[2]) return undefined;
  return { hash: match[1], path: decodeURIComponent(match[2]) };
}

/** Whether a comment is ours for this definitions path. */
export function isOurComment(body: string | null | undefined, path: string): boolean {
  return parseMarker(body)?.path === path;
}

/**
 * Cuts markdown at a line boundary so that, with the note appended, it stays under `limit` characters. Code fences
 * and `<details>` blocks left open by the cut are closed, so the rest of the comment still renders.
 */
export function fitMarkdown(markdown: string, note: string, limit = GITHUB_COMMENT_LIMIT): { text: string; cut: boolean } {
  if (markdown.length < limit) return { text: markdown, cut: false };
  // Room for the note, the closers we may add (a fence and a few </details>) and a safety margin.
  const budget = limit - note.length - 256;
  const lines = markdown.split('\n');
  const kept: string[] = [];
  let length = 0;
  let inFence = false;
  let openDetails = 0;
  for (const line of lines) {
    if (length + line.length + 1 > budget) {
      // A single huge first line still yields something: its head.
      if (kept.length === 0) kept.push(line.slice(0, Math.max(0, budget)));
      break;
    }
    kept.push(line);
    length += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (!inFence) {
      openDetails += (line.match(/<details\b/g) ?? []).length;
      openDetails -= (line.match(/<\/details>/g) ?? []).length;
    }
  }
  const closers: string[] = [];
  if (inFence) closers.push('```');
  for (let i = 0; i < Math.min(openDetails, 10); i++) closers.push('', '</details>');
  const text = [...kept, ...closers, '', note].join('\n');
  return { text, cut: true };
}

/** Where the whole plan can be read when the comment had to be cut. */
export function describeWherePlanIs(options: { runUrl?: string; artifactName?: string }): string {
  const where = options.runUrl ? `the [job summary](${options.runUrl})` : 'the job summary of this run';
  const artifact = options.artifactName ? ` and the uploaded JSON plan (artifact \`${options.artifactName}\`)` : ' and the JSON plan file (output `plan-file`)';
  return `> [!NOTE]\n> This plan is too long for one GitHub comment and was cut here. The whole plan is in ${where}${artifact}.`;
}
