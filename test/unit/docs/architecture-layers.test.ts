import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/architecture.md's layer rules that hold today, checked on the import lines themselves (static, dynamic and
// re-exports, type-only ones included: a type import ties the layers as much as a value import does).

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/**
 * A rule: the files it covers (paths under src/) may import only from the `allowed` folders of src/, or nothing from
 * the `forbidden` ones. A folder ends with `/`; anything else names one file.
 */
interface LayerRule {
  name: string;
  files: string[];
  allowed?: string[];
  forbidden?: string[];
  /** Imports known to break the rule, as `file -> imported`, each to move; the rule fails on any other. */
  pending?: readonly string[];
}

const matches = (paths: string[], imported: string): boolean =>
  paths.some((path) => (path.endsWith('/') ? imported.startsWith(path) : imported === path));

function filesUnder(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file).split('\\').join('/'));
}

function allFiles(): string[] {
  return filesUnder('.').map((file) => file.replace(/^\.\//, ''));
}

/** The CLI actions that start or open the server (serve, keys, backup, demo), each loaded only when its command runs. */
const SERVER_ENTRY_POINTS = ['cli/actions/serve.ts', 'cli/actions/keys.ts', 'cli/actions/demo.ts', 'cli/commands/backup.ts'];

const RULES: LayerRule[] = [
  { name: 'model/ imports nothing above it', files: filesUnder('model'), allowed: ['model/'] },
  // The plan's types sit on the definitions they are computed from and on the model; the backtest (impact/) is
  // carried beside a Plan, never inside it.
  { name: 'plan/types.ts is a leaf', files: ['plan/types.ts'], allowed: ['model/', 'definitions/definitions.ts', 'definitions/problems.ts'] },
  {
    name: 'nothing outside server/ imports it but the CLI actions that start it',
    files: allFiles().filter((file) => !file.startsWith('server/') && !SERVER_ENTRY_POINTS.includes(file)),
    forbidden: ['server/'],
  },
  // What the planner's previews and the server's notifiers share sits below both: the notification, its wording,
  // its templates.
  {
    name: 'notifications/ stands on model/ and evaluation/ only',
    files: filesUnder('notifications'),
    allowed: ['notifications/', 'model/', 'evaluation/'],
  },
  // The store keeps rows; deciding and sending are the evaluator's and the notifiers' (they use the store, not the
  // other way round).
  {
    name: 'server/store/ imports nothing of the evaluator or the notifiers',
    files: filesUnder('server/store'),
    forbidden: ['server/evaluator/', 'server/notifiers/'],
  },
  // The evaluator's pure core judges series, whoever fetched them (the CLI's rule tests and backtests too).
  { name: 'evaluation/ imports nothing of graphite/', files: filesUnder('evaluation'), forbidden: ['graphite/'] },
  // The stream's parsers, matcher and rings are pure: the CLI and the server share them; sockets live in server/stream/.
  { name: 'stream/ stands on model/ and evaluation/ only', files: filesUnder('stream'), allowed: ['stream/', 'model/', 'evaluation/'] },
  // The function engine is pure and below both the evaluator and the rule tests: the target grammar and the series shape.
  {
    name: 'graphite-functions/ imports only model/ and evaluation/render-series.ts',
    files: filesUnder('graphite-functions'),
    allowed: ['graphite-functions/', 'model/', 'evaluation/render-series.ts'],
  },
];

/** The src/-relative files a source imports (packages and node: builtins are not layers and are left out). */
function importedSourceFiles(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(SRC, resolve(dirname(join(SRC, file)), specifier)).split('\\').join('/').replace(/\.js$/, '.ts'));
}

/** Every import of the rule's files that leaves its allowed folders or enters a forbidden one, as `file -> imported`. */
function violations(rule: LayerRule, read: (file: string) => string = (file) => readFileSync(join(SRC, file), 'utf8')): string[] {
  const breaks = (imported: string): boolean =>
    (rule.allowed !== undefined && !matches(rule.allowed, imported)) || (rule.forbidden !== undefined && matches(rule.forbidden, imported));
  return rule.files.flatMap((file) =>
    [...new Set(importedSourceFiles(file, read(file)))].filter(breaks).map((imported) => `${file} -> ${imported}`),
  );
}

describe('the layers of docs/architecture.md', () => {
  for (const rule of RULES) {
    it(`${rule.name}`, () => {
      expect(rule.files.length).toBeGreaterThan(0);
      const pending = rule.pending ?? [];
      const found = violations(rule);
      expect(found.filter((line) => !pending.includes(line))).toEqual([]);
      // A pending import that is gone comes off its list, so the list never hides a new one.
      expect(pending.filter((line) => rule.files.includes(line.slice(0, line.indexOf(' -> '))) && !found.includes(line))).toEqual([]);
    });
  }

  it('sees static, type-only, re-exported and dynamic imports that point up', () => {
    const text = [
      "import { a } from './defaults.js';",
      "import type { Plan } from '../plan/types.js';",
      "export { parse } from '../graphite/target.js';",
      "const later = () => import('../server/app.js');",
      "import { z } from 'ajv';",
    ].join('\n');
    const rule = { name: 'probe', files: ['model/probe.ts'], allowed: ['model/'] };
    expect(violations(rule, () => text)).toEqual(['model/probe.ts -> plan/types.ts', 'model/probe.ts -> graphite/target.ts', 'model/probe.ts -> server/app.ts']);
  });

  it('sees an import into a forbidden folder and lets the rest pass', () => {
    const text = ["import type { EvaluationLease } from '../evaluator/round-lease.js';", "import { rows } from './rows.js';"].join('\n');
    const rule = { name: 'probe', files: ['server/store/probe.ts'], forbidden: ['server/evaluator/'] };
    expect(violations(rule, () => text)).toEqual(['server/store/probe.ts -> server/evaluator/round-lease.ts']);
  });
});
