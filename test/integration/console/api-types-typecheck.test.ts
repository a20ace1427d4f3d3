import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { nativeTypecheck } from '../../helpers/native-tsc.js';

const CONSOLE_DIR = fileURLToPath(new URL('../../../console/', import.meta.url));

it("makes a field the server renames fail the console typecheck (console/api-schema.d.ts is what the console's code is checked against)", async () => {
  const schema = readFileSync(join(CONSOLE_DIR, 'api-schema.d.ts'), 'utf8');
  // The backtest's `fired` and the overview's `currently_triggered_metrics`, renamed in the answers' shapes.
  const renamed = schema.replace(/^(\s+)fired: number;$/m, '$1fired_count: number;').replace(/^(\s+)currently_triggered_metrics: /gm, '$1triggered: ');
  expect(renamed).not.toBe(schema);
  const copy = mkdtempSync(join(tmpdir(), 'af-console-types-'));
  try {
    cpSync(CONSOLE_DIR, copy, { recursive: true });
    writeFileSync(join(copy, 'api-schema.d.ts'), renamed);
    const checked = await nativeTypecheck(copy, copy);
    expect(checked.code).not.toBe(0);
    const errors = checked.stdout.split('\n').filter(Boolean);
    expect(errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/alert-page\.js\(\d+,\d+\): error TS2339: Property 'fired' does not exist/), expect.stringMatching(/overview\.js\(\d+,\d+\): error TS2339: Property 'currently_triggered_metrics' does not exist/)]),
    );
    // Nothing else breaks: the two renames are all the checker complains about.
    expect(errors.every((line) => /Property '(fired|currently_triggered_metrics)' does not exist/.test(line))).toBe(true);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
