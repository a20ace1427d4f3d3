export { importSources, type ImportOutcome } from './import-sources.js';
export { renderImport, type ImportFile } from './render-import.js';
export { ruleOutcome, type ImportResult, type ImportedRule } from './import-types.js';
