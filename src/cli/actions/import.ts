import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { importSources, renderImport, ruleOutcome } from '../../import/index.js';
import type { ImportSource } from '../../import/import-types.js';
import { copySchemas, findRepositoryRoot, schemaPathFrom } from '../../scaffold/schema-copy.js';
import { optionsOf, writeOut } from '../context.js';
import { writeJson } from '../json-output.js';

/** Exit code of an import that wrote its files but left something behind (IMPORT-REPORT.md says what). */
export const INCOMPLETE_IMPORT_EXIT = 2;

/** `import moira|grafana`: loaded lazily so other commands start fast. */
export async function runImport(tool: ImportSource, sources: string[], command: Command): Promise<void> {
  const opts = optionsOf<{ out: string }>(command);
  const { result } = await importSources(tool, sources);
  await mkdir(opts.out, { recursive: true });
  const root = await findRepositoryRoot(opts.out);
  await copySchemas(root);
  const files = renderImport(result, schemaPathFrom(opts.out, root, 'definitions'));
  for (const file of files) await writeFile(join(opts.out, file.name), file.text);
  const written = files.map((f) => join(opts.out, f.name));
  const complete = result.rules.every((r) => ruleOutcome(r) === 'complete') && result.droppedOther.length === 0;
  if (!complete) process.exitCode = INCOMPLETE_IMPORT_EXIT;
  if (opts.json) {
    await writeJson({
      complete,
      written,
      rules: result.rules.map((r) => ({ source_id: r.sourceId, title: r.title, outcome: ruleOutcome(r), alerts: r.alerts.map((a) => a.name), dropped: r.dropped })),
      other: result.droppedOther,
    });
    return;
  }
  // Every field left behind, per rule, on stderr: the same lines as the report's tables.
  for (const rule of result.rules) {
    for (const d of rule.dropped) process.stderr.write(`${tool} "${rule.title}" (${rule.sourceId || 'no id'}): ${d.field} = ${d.value}: ${d.why}\n`);
  }
  for (const d of result.droppedOther) process.stderr.write(`${tool} ${d.object}: ${d.field} = ${d.value}: ${d.why}\n`);
  const counts = { complete: 0, partial: 0, not_imported: 0 };
  for (const rule of result.rules) counts[ruleOutcome(rule)] += 1;
  await writeOut(
    `Imported ${result.rules.length} ${tool === 'moira' ? 'trigger' : 'rule'}(s): ${counts.complete} whole, ${counts.partial} in part, ${counts.not_imported} not imported.\n` +
      `Wrote ${written.map((w) => relative(process.cwd(), w) || w).join(', ')}\n`,
  );
}
