import { cpSync, writeFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { runCli } from '../../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every YAML file of a repository (CI files under .github, workflows/ and ci/ are not definitions) with its $schema path. */
function schemaLines(repo: string): Array<{ file: string; schema: string | undefined }> {
  const found: Array<{ file: string; schema: string | undefined }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory() && !['.github', 'workflows', 'ci'].includes(entry.name)) walk(full);
      else if (/\.ya?ml$/.test(entry.name) && !entry.name.startsWith('.')) {
        const match = /^# yaml-language-server: \$schema=(\S+)$/m.exec(readFileSync(full, 'utf8'));
        found.push({ file: full, schema: match?.[1] });
      }
    }
  };
  walk(repo);
  return found;
}

/**
 * Checks what an editor would do: each file's $schema line is a relative path to an existing schema file, and
 * ajv, given only the schema files at those paths, accepts the file.
 */
function expectSchemaLinesResolveAndValidate(repo: string): number {
  const files = schemaLines(repo);
  expect(files.length).toBeGreaterThan(0);
  for (const { file, schema } of files) {
    expect(schema, `${file} has no $schema line`).toBeDefined();
    expect(isAbsolute(schema!), `${file}: ${schema}`).toBe(false);
    expect(schema, file).not.toContain('node_modules');
    const schemaFile = resolve(dirname(file), schema!);
    expect(relative(repo, schemaFile).startsWith('..'), `${file}: ${schema} leaves the repository`).toBe(false);
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
    const schemaDir = dirname(schemaFile);
    for (const name of readdirSync(schemaDir)) {
      if (join(schemaDir, name) !== schemaFile) ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, name), 'utf8')) as object);
    }
    const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
    const valid = validate(parse(readFileSync(file, 'utf8')));
    expect(valid, `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  return files.length;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const created = await server.request('POST', '/v2/notifications/', { type: 'slack', description: 'team', destination: 'https://hooks.slack.com/services/X' });
  expect(created.status).toBe(201);
  const alert = await server.request('POST', '/v2/alerts/', { name: 'load', metric: 'hosts.*.load', alert_criteria: { type: 'above', above_value: 4 }, notification_channels: ['team'] });
  expect(alert.status).toBe(201);
});
afterAll(() => server.close());

describe('$schema lines', { timeout: 120_000 }, () => {
  it('of an initialised repository resolve into its .alertform/schemas and validate', async () => {
    const repo = join(mkdtempSync(join(tmpdir(), 'af-init-')), 'alerts');
    const result = await runCli(['init', repo]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(repo, '.vscode', 'settings.json'), 'utf8'))['yaml.schemas']).toBeDefined();
    expect(readFileSync(join(repo, '.github', 'workflows', 'alertform.yml'), 'utf8')).toContain('uses: alertform/alertform@');
    expect(expectSchemaLinesResolveAndValidate(repo)).toBe(3);
    // The quick start's database never lands in the definitions repository.
    expect(readFileSync(join(repo, '.gitignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['alertform.db', 'alertform.db-*', '.alertform-demo/']));
    expect(result.stdout).toContain('.gitignore');
    const again = await runCli(['init', repo]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exist.*--force/);
    expect((await runCli(['init', repo, '--force'])).code).toBe(0);
  });

  it('adds its .gitignore lines to an existing .gitignore, keeping what it had, once', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'af-init-ignore-'));
    writeFileSync(join(repo, '.gitignore'), 'secrets.env\nalertform.db');
    expect((await runCli(['init', repo])).code).toBe(0);
    const text = readFileSync(join(repo, '.gitignore'), 'utf8');
    expect(text.startsWith('secrets.env\nalertform.db\n# alertform')).toBe(true);
    expect(text.match(/^alertform\.db$/gm)).toHaveLength(1);
    expect(text).toContain('.alertform-demo/');
    expect((await runCli(['init', repo, '--force'])).code).toBe(0);
    expect(readFileSync(join(repo, '.gitignore'), 'utf8')).toBe(text);
  });

  it('written by pull into a subdirectory of a repository point to the repository root, relative', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'af-pull-repo-'));
    expect((await runCli(['init', repo])).code).toBe(0);
    const out = join(repo, 'pulled', 'team');
    const result = await runCli(['pull', '--out', out, '--server', server.authUrl]);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(out, 'alerts.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/\.alertform\/schemas\/definitions\.schema\.json$/m);
    expect(expectSchemaLinesResolveAndValidate(repo)).toBe(5);
  });

  it('written by pull into a new directory get a schema copy of their own', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'af-pull-new-')), 'alerts');
    const result = await runCli(['pull', '--out', out, '--server', server.authUrl]);
    expect(result.code, result.stderr).toBe(0);
    expect(expectSchemaLinesResolveAndValidate(out)).toBe(2);
  });

  it('of examples/ still resolve when examples/ is copied out of the package', () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'af-examples-')), 'examples');
    mkdirSync(copy);
    cpSync(join(ROOT, 'examples'), copy, { recursive: true });
    expect(expectSchemaLinesResolveAndValidate(copy)).toBe(8); // seven definitions files and the rule tests (alerts-api.test.yaml, against rule-test.schema.json)
  });

  it('examples/.alertform/schemas is the same as schemas/ (cp schemas/*.json examples/.alertform/schemas/)', () => {
    for (const name of readdirSync(join(ROOT, 'schemas'))) {
      expect(readFileSync(join(ROOT, 'examples', '.alertform', 'schemas', name), 'utf8'), name).toBe(readFileSync(join(ROOT, 'schemas', name), 'utf8'));
    }
  });
});
