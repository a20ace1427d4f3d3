import { fitMarkdown, isOurComment, parseMarker } from '../action/comment.js';
import { sha256, stableStringify } from '../plan/fingerprint.js';
import { CliError } from '../cli/errors.js';

/** One comment, note or issue the host already has. */
export interface Post {
  id: number;
  body: string;
}

/**
 * Where a plan comment goes on one CI host: a merge request's notes, a pull request's comments, or the open issues
 * of a project (the drift check). `find` returns ours, found by the hidden marker, or undefined.
 */
export interface Thread {
  /** For messages: `merge request !12`, `issue #3`... */
  describe(id?: number): string;
  /** The host refuses bodies of this many characters or more. */
  limit: number;
  find(isOurs: (body: string) => boolean): Promise<Post | undefined>;
  create(body: string): Promise<number>;
  /** Updates the body; `close` also closes it (an issue once the drift is gone). */
  update(id: number, body: string, options?: { close?: boolean }): Promise<void>;
}

export type PostOutcome = { action: 'created' | 'updated' | 'closed'; id: number } | { action: 'skipped'; reason: string };

/** The hash a plan without changes has: fingerprintPlan of no change. */
export const NO_CHANGE_HASH = sha256(stableStringify([]));

/**
 * Whether a comment says nothing changes. Invalid definitions and a plan that failed say something (their marker
 * carries `invalid` or `error`), so they are always posted.
 */
export function saysNoChange(body: string): boolean {
  return parseMarker(body)?.hash === NO_CHANGE_HASH;
}

/** The marker's path, or a plain error when the file is not a comment that `plan --out-comment` wrote. */
export function markerPathOf(body: string, file: string): string {
  const marker = parseMarker(body);
  if (!marker) throw new CliError(`${file} is not an alertform plan comment (no hidden marker): write it with \`alertform plan --out-comment ${file}\``);
  return marker.path;
}

/**
 * A merge request's or pull request's note: updated in place when it is there (by the marker, per definitions
 * path), created otherwise. `changesOnly` posts no new note for a plan without changes, but still updates an
 * existing one, so that an earlier plan with changes is never left standing.
 */
export async function upsertReviewNote(thread: Thread, body: string, options: { path: string; changesOnly?: boolean; whereWhole: string }): Promise<PostOutcome> {
  const text = fit(body, thread.limit, options.whereWhole);
  const skip = options.changesOnly && saysNoChange(body);
  const outcome = await upsertOurPost(thread, text, options.path, { createIf: !skip });
  return outcome ?? { action: 'skipped', reason: 'the plan changes nothing' };
}

/**
 * Ours (the marker for `path`, and whatever else the thread's `find` requires: on GitHub, our author) updated in
 * place, else created unless `createIf` is false (then undefined). The one upsert of the Action's PR comment and of
 * `alertform comment`; `text` must already fit the thread's limit.
 */
export async function upsertOurPost(
  thread: Thread,
  text: string,
  path: string,
  options: { createIf?: boolean } = {},
): Promise<{ action: 'created' | 'updated'; id: number } | undefined> {
  const existing = await thread.find((b) => isOurComment(b, path));
  if (existing) {
    await thread.update(existing.id, text);
    return { action: 'updated', id: existing.id };
  }
  if (options.createIf === false) return undefined;
  return { action: 'created', id: await thread.create(text) };
}

/**
 * The drift check's one issue: opened when the server differs from git (or the plan failed), updated in place on
 * later runs, closed (with the clean plan as its last text) once the server matches again.
 */
export async function upsertDriftIssue(thread: Thread, body: string, options: { path: string; whereWhole: string }): Promise<PostOutcome> {
  const text = fit(body, thread.limit, options.whereWhole);
  const existing = await thread.find((b) => isOurComment(b, options.path));
  if (saysNoChange(body)) {
    if (!existing) return { action: 'skipped', reason: 'the server matches the definitions and no drift issue is open' };
    await thread.update(existing.id, text, { close: true });
    return { action: 'closed', id: existing.id };
  }
  if (existing) {
    await thread.update(existing.id, text);
    return { action: 'updated', id: existing.id };
  }
  return { action: 'created', id: await thread.create(text) };
}

function fit(body: string, limit: number, whereWhole: string): string {
  return fitMarkdown(body, `> **Note:** this plan was cut to fit. ${whereWhole}`, limit).text;
}
