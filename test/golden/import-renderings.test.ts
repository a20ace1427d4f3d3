import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importSources, renderImport } from '../../src/import/index.js';
import { importMoira } from '../../src/import/moira/import-moira.js';
import { readMoiraDocument } from '../../src/import/moira/read-moira.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
const SCHEMA = '.alertform/schemas/definitions.schema.json';

/** Each written file against test/golden/import/TOOL/NAME; `UPDATE_GOLDEN=1` rewrites them (review the diff). */
function matchGoldenDir(tool: string, files: { name: string; text: string }[]): void {
  const dir = fileURLToPath(new URL(`./import/${tool}/`, import.meta.url));
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(dir, { recursive: true });
    for (const file of files) writeFileSync(`${dir}${file.name}`, file.text);
  }
  if (!existsSync(dir)) expect.fail(`golden files test/golden/import/${tool}/ are missing: write them with UPDATE_GOLDEN=1, then review them`);
  expect(files.map((f) => f.name).sort()).toEqual(readdirSync(dir).sort());
  for (const file of files) expect(file.text, file.name).toBe(readFileSync(`${dir}${file.name}`, 'utf8'));
}

describe('import renderings', () => {
  it('writes the Moira fixtures (triggers and user settings) as the golden files', async () => {
    const { result } = await importSources('moira', [`${FIXTURES}moira/triggers.json`, `${FIXTURES}moira/settings.json`]);
    matchGoldenDir('moira', renderImport(result, SCHEMA));
  });

  it('writes the Grafana fixtures (rules and contact points) as the golden files', async () => {
    const { result } = await importSources('grafana', [`${FIXTURES}grafana/rules.yaml`, `${FIXTURES}grafana/contact-points.yaml`]);
    matchGoldenDir('grafana', renderImport(result, SCHEMA));
  });

  it('writes the same files whatever order the export lists its triggers in', () => {
    const document = JSON.parse(readFileSync(`${FIXTURES}moira/triggers.json`, 'utf8')) as { list: unknown[] };
    const forward = renderImport(importMoira(readMoiraDocument(document)), SCHEMA);
    const backward = renderImport(importMoira(readMoiraDocument({ list: [...document.list].reverse() })), SCHEMA);
    expect(backward).toEqual(forward);
  });

  it('keeps source text that would break a comment or a table on its own line', () => {
    const result = importMoira(readMoiraDocument({ id: 'x|y', name: 'evil\n- name: injected', targets: ['a.b'], error_value: 1, warn_value: 1, tags: ['t\nalerts: []'], ttl_state: 'OK', strange: 'a|b\n`c`' }));
    const files = renderImport(result, SCHEMA);
    const alerts = files.find((f) => f.name.startsWith('alerts-'))!.text;
    // The name stays a quoted YAML value; the tag in the comment stays on the comment line.
    expect(alerts).toContain('# Moira trigger x|y, tags: t alerts: []');
    expect(alerts.match(/^- name:/gm)).toBeNull();
    const report = files.find((f) => f.name === 'IMPORT-REPORT.md')!.text;
    expect(report).toContain("| strange | a\\|b 'c' | not known to the importer |");
  });
});
