import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONSOLE_API_SCHEMA, consoleApiSchema } from '../../../scripts/console-api-types.js';

const CONSOLE_DIR = fileURLToPath(new URL('../../../console/', import.meta.url));

/**
 * The errors `tsc -p console` finds in `files` with console/api-schema.d.ts read as `schema` (only those files are
 * checked: the whole console is `npm run typecheck`'s job).
 */
function consoleErrors(schema: string, files: string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(CONSOLE_DIR, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (resolve(file) === resolve(CONSOLE_API_SCHEMA) ? schema : readFile(file));
  const program = ts.createProgram({ rootNames: files.map((file) => join(CONSOLE_DIR, file)), options: config.options, host });
  return files.flatMap((file) =>
    program.getSemanticDiagnostics(program.getSourceFile(join(CONSOLE_DIR, file))).map((d) => `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
  );
}

describe("the console's API types", () => {
  it('are what scripts/console-api-types.ts generates from the OpenAPI document now (run it after an API change)', async () => {
    expect(readFileSync(CONSOLE_API_SCHEMA, 'utf8')).toBe(await consoleApiSchema());
  });

  it('make a field the server renames fail the console typecheck', { timeout: 60_000 }, () => {
    const schema = readFileSync(CONSOLE_API_SCHEMA, 'utf8');
    // The backtest's `fired` and the overview's `currently_triggered_metrics`, renamed in the answers' shapes.
    const renamed = schema.replace(/^(\s+)fired: number;$/m, '$1fired_count: number;').replace(/^(\s+)currently_triggered_metrics: /gm, '$1triggered: ');
    expect(renamed).not.toBe(schema);
    const errors = consoleErrors(renamed, ['alert-page.js', 'overview.js']);
    expect(errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^alert-page\.js: Property 'fired' does not exist/), expect.stringMatching(/^overview\.js: Property 'currently_triggered_metrics' does not exist/)]),
    );
  });
});
