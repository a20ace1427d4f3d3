import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/architecture.md's layer rules that hold today, checked on the import lines themselves (static, dynamic and
// re-exports, type-only ones included: a type import ties the layers as much as a value import does).

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** A rule: the files it covers (paths under src/) may import only from the listed folders of src/. */
interface LayerRule {
  name: string;
  files: string[];
  allowed: string[];
}

function filesUnder(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file).split('\\').join('/'));
}

const RULES: LayerRule[] = [
  { name: 'model/ imports nothing above it', files: filesUnder('model'), allowed: ['model/'] },
  // The plan's types sit on the definitions they are computed from and on the model; the backtest (impact/) is
  // carried beside a Plan, never inside it.
  { name: 'plan/types.ts is a leaf', files: ['plan/types.ts'], allowed: ['model/', 'definitions/definitions.ts', 'definitions/problems.ts'] },
];

/** The src/-relative files a source imports (packages and node: builtins are not layers and are left out). */
function importedSourceFiles(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(SRC, resolve(dirname(join(SRC, file)), specifier)).split('\\').join('/').replace(/\.js$/, '.ts'));
}

/** Every import of the rule's files that leaves its allowed folders, as `file -> imported`. */
function violations(rule: LayerRule, read: (file: string) => string = (file) => readFileSync(join(SRC, file), 'utf8')): string[] {
  return rule.files.flatMap((file) =>
    importedSourceFiles(file, read(file))
      .filter((imported) => !rule.allowed.some((allowed) => (allowed.endsWith('/') ? imported.startsWith(allowed) : imported === allowed)))
      .map((imported) => `${file} -> ${imported}`),
  );
}

describe('the layers of docs/architecture.md', () => {
  for (const rule of RULES) {
    it(`${rule.name}`, () => {
      expect(rule.files.length).toBeGreaterThan(0);
      expect(violations(rule)).toEqual([]);
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
});
