import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LineCounter, parseDocument, isNode } from 'yaml';
import { describeAjvErrors, validatorFor } from '../model/schemas.js';
import type { Problem } from './problems.js';
import { PROJECT_FILE } from './load.js';
import { isAliasBomb } from './alias-expansion.js';
import { aliasBombProblem } from './yaml-source.js';

/** Prune settings: server objects whose name matches a glob and that no file defines are deleted. */
export interface PruneConfig {
  match: string[];
  /** Refuse plans deleting more than this many objects (default 10) unless --allow-deletes says more. */
  max_deletes: number;
}

/** alertform.yaml, with defaults filled. */
export interface ProjectConfig {
  server?: string;
  /** graphite-web root for `plan` backtests and `validate`/`test` live checks. */
  graphite?: string;
  prune: PruneConfig | false;
}

export const DEFAULT_MAX_DELETES = 10;

/** Reads `alertform.yaml` at the root of a definitions directory; a missing file is the default config. */
export async function loadProjectConfig(dir: string): Promise<{ config: ProjectConfig; problems: Problem[] }> {
  const path = join(dir, PROJECT_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: { prune: false }, problems: [] };
    throw error;
  }
  return parseProjectConfig(text, path);
}

/** Parses and validates the text of an alertform.yaml. */
export function parseProjectConfig(text: string, file: string): { config: ProjectConfig; problems: Problem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { file, line: pos.line, column: pos.col };
  };
  if (doc.errors.length > 0) {
    return { config: { prune: false }, problems: doc.errors.map((e) => ({ location: at(e.pos[0]), path: '', message: e.message.split('\n')[0]! })) };
  }
  const value = (doc.toJS({ maxAliasCount: -1 }) ?? {}) as Record<string, unknown>;
  if (isAliasBomb(value)) return { config: { prune: false }, problems: [aliasBombProblem({ path: file, text }, doc, at)] };
  const validate = validatorFor('project');
  if (!validate(value)) {
    const problems = describeAjvErrors(validate.errors).map((p) => {
      const node = doc.getIn(p.path ? p.path.split('.') : [], true);
      return { location: isNode(node) && node.range ? at(node.range[0]) : { file, line: 1, column: 1 }, path: p.path, message: p.message };
    });
    return { config: { prune: false }, problems };
  }
  const prune = value.prune as { match: string[]; max_deletes?: number } | false | undefined;
  return {
    config: {
      ...(typeof value.server === 'string' ? { server: value.server } : {}),
      ...(typeof value.graphite === 'string' ? { graphite: value.graphite } : {}),
      prune: prune ? { match: prune.match, max_deletes: prune.max_deletes ?? DEFAULT_MAX_DELETES } : false,
    },
    problems: [],
  };
}
