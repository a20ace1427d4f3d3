import { importGrafana } from './grafana/import-grafana.js';
import { readGrafanaDocument, type GrafanaExport } from './grafana/read-grafana.js';
import type { ImportResult, ImportSource } from './import-types.js';
import { importMoira } from './moira/import-moira.js';
import { readMoiraDocument, type MoiraExport } from './moira/read-moira.js';
import { readSources } from './read-source.js';
import { AlertformError } from '../model/errors.js';

export interface ImportOutcome {
  result: ImportResult;
  /** Where the documents came from, in order. */
  origins: string[];
}

/** Reads the sources and maps them: the whole import but the writing. */
export async function importSources(tool: ImportSource, sources: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ImportOutcome> {
  const documents = await readSources(tool, sources, env);
  const shape = (origin: string, read: () => void) => {
    try {
      read();
    } catch (error) {
      throw new AlertformError('bad_source', `${origin}: ${(error as Error).message}`);
    }
  };
  if (tool === 'moira') {
    const moira: MoiraExport = { triggers: [], subscriptions: [], contacts: [] };
    for (const { origin, document } of documents) shape(origin, () => readMoiraDocument(document, moira));
    return { result: importMoira(moira), origins: documents.map((d) => d.origin) };
  }
  const grafana: GrafanaExport = { groups: [], contactPoints: [] };
  for (const { origin, document } of documents) shape(origin, () => readGrafanaDocument(document, grafana));
  return { result: importGrafana(grafana), origins: documents.map((d) => d.origin) };
}
