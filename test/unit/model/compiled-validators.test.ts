import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { standaloneValidatorsSource } from '../../../src/model/compile-schemas.js';
import { getAjv, SCHEMA_BASE, validatorExportName, type SchemaName } from '../../../src/model/schemas.js';

const dir = mkdtempSync(join(tmpdir(), 'alertform-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The module the build writes to dist/, here resolving Ajv's runtime helpers from src/model/. */
async function loadCompiled(): Promise<Record<string, (value: unknown) => boolean>> {
  const file = join(dir, 'compiled-validators.mjs');
  const base = pathToFileURL(join(process.cwd(), 'src/model/schemas.ts')).href;
  writeFileSync(file, standaloneValidatorsSource(JSON.stringify(base)));
  return (await import(pathToFileURL(file).href)) as Record<string, (value: unknown) => boolean>;
}

const cases: [SchemaName, string | undefined, unknown][] = [
  ['definitions', undefined, { alerts: [{ name: 'a', metric: 'm', alert_criteria: { type: 'above', above_vale: 1 } }], bogus: 1 }],
  ['definitions', 'alert', { name: 'a', metric: 'm', alert_criteria: { type: 'outside_bounds', above_value: 'x' }, notification_type: ['every'] }],
  ['alert', 'create', { name: '', metric: 'm', alert_criteria: { type: 'missing', time_period: 0 }, expression: 'a ||' }],
  ['channel', 'create', { type: 'carrier-pigeon', description: 7 }],
  ['schedule', 'update', { name: 's', start_time: '25:00', timezone: 3 }],
  ['project', undefined, { prune: { match: 'x' }, server: 5 }],
  ['rule-test', undefined, { tests: [{ start: 'yesterday' }] }],
  ['definitions', undefined, { channels: [{ type: 'email', description: 'ops', destination: 'ops@example.com' }] }],
];

describe('the validators compiled at build time', () => {
  it('give the same verdict and the same errors as Ajv compiling at run time', async () => {
    const compiled = await loadCompiled();
    for (const [name, def, value] of cases) {
      const runtime = getAjv().getSchema(`${SCHEMA_BASE}${name}.schema.json${def ? `#/$defs/${def}` : ''}`)!;
      const precompiled = compiled[validatorExportName(name, def)] as ((value: unknown) => boolean) & { errors?: unknown };
      expect(precompiled, `${name}#${def}`).toBeTypeOf('function');
      expect(precompiled(value)).toBe(runtime(value));
      expect(precompiled.errors ?? null).toEqual(runtime.errors ?? null);
    }
  });
});
