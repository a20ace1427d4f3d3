import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AlertformClient } from '../../../src/client/api.js';
import { loadProject } from '../../../src/definitions/source.js';
import { planAgainstServer } from '../../../src/plan/make-plan.js';

export const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** A private copy of examples/ (without workflows, nor the files named in `leaveOut`) that a test may edit. */
export function copyExamples(leaveOut: readonly string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'af-defs-'));
  cpSync(EXAMPLES, dir, { recursive: true, filter: (src) => !src.includes('workflows') && !leaveOut.includes(basename(src)) });
  return dir;
}

/** A client with fast retries, so tests of failure paths take milliseconds. */
export function fastClient(server: string, options: { timeoutMs?: number; sleeps?: number[]; retries?: number } = {}): AlertformClient {
  return new AlertformClient({
    server,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    retry: { retries: options.retries ?? 6, sleep: async (ms) => void options.sleeps?.push(ms) },
  });
}

/** Loads a definitions directory (failing on problems) and plans it against a server. */
export async function planDir(dir: string, client: AlertformClient, env: NodeJS.ProcessEnv = process.env, allowDeletes?: number) {
  const loaded = await loadProject(dir, { env });
  if (loaded.problems.length > 0) throw new Error(`definitions have problems: ${JSON.stringify(loaded.problems)}`);
  const result = await planAgainstServer(loaded.definitions, client, { prune: loaded.config.prune, ...(allowDeletes !== undefined ? { allowDeletes } : {}) });
  return { ...result, loaded };
}
