import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFINITION_FILE_GLOBS, PROJECT_FILE, RULE_TEST_FILE_GLOBS } from '../definitions/file-rules.js';
import { copySchemas, schemaLine, shippedSchemaFiles, SCHEMA_COPY_DIR } from './schema-copy.js';

/** The workflow shipped in examples/workflows, two levels above this file in src/ and in dist/. */
const WORKFLOW = fileURLToPath(new URL('../../examples/workflows/alertform.yml', import.meta.url));

/** A file the scaffold writes, relative to the repository root. */
export interface ScaffoldFile {
  path: string;
  text: string;
}

/** Thrown when files the scaffold would write exist already (and --force was not given). */
export class ScaffoldConflict extends Error {
  constructor(readonly existing: string[]) {
    super(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}: pass --force to overwrite`);
    this.name = 'ScaffoldConflict';
  }
}

/** The files of a new definitions repository, except the schema copies (copied as they are). */
export async function scaffoldFiles(root: string): Promise<ScaffoldFile[]> {
  const line = (path: string, name: 'project' | 'definitions') => schemaLine(join(root, path), root, name);
  return [
    {
      path: PROJECT_FILE,
      text: `${line(PROJECT_FILE, 'project')}
# Settings of this definitions repository. The API key never goes here: use ALERTFORM_API_KEY.
# server: is for the CLI on your machine; the GitHub Action never reads it (ALERTFORM_URL in the workflow).
server: http://127.0.0.1:8080
# Deletes happen only for server objects that match a glob here and that no file defines:
# prune:
#   match: ["team-*"]
#   max_deletes: 5
`,
    },
    {
      path: 'channels.yaml',
      text: `${line('channels.yaml', 'definitions')}
# Notification channels. Keep credentials out of git: \${VAR} reads the environment, \${VAR:-default} has a fallback.
channels:
  - description: ops-email
    type: email
    destination: \${OPS_EMAIL:-ops@example.com}
`,
    },
    {
      path: 'alerts.yaml',
      text: `${line('alerts.yaml', 'definitions')}
# Alerts on Graphite metrics. Wildcards are judged per series: each host alerts alone.
alerts:
  - name: example-disk-full
    metric: collectd.*.df-root.percent_bytes-used
    alert_criteria:
      type: above
      above_value: 90
      time_period: 10
    notification_channels: [ops-email]
    notification_type: state_change
    info: More than 90% of / used for 10 minutes.
`,
    },
    {
      path: '.vscode/settings.json',
      text: `${JSON.stringify(
        {
          'yaml.schemas': {
            [`./${SCHEMA_COPY_DIR}/project.schema.json`]: [PROJECT_FILE],
            [`./${SCHEMA_COPY_DIR}/definitions.schema.json`]: DEFINITION_FILE_GLOBS,
            [`./${SCHEMA_COPY_DIR}/rule-test.schema.json`]: RULE_TEST_FILE_GLOBS,
          },
        },
        null,
        2,
      )}\n`,
    },
    { path: '.github/workflows/alertform.yml', text: await readFile(WORKFLOW, 'utf8') },
  ];
}

/**
 * What a definitions repository must not commit: the quick start's SQLite database (and its WAL files), the demo's
 * copy, installed packages, and the files plan and the CI examples write (a saved plan, comment files).
 */
export const GITIGNORE_LINES = ['alertform.db', 'alertform.db-*', '.alertform-demo/', 'node_modules/', 'alertform-plan.md', 'alertform-drift.md', '*.plan.json'];

/**
 * Adds the lines of GITIGNORE_LINES that `.gitignore` lacks (creating it when missing): never a conflict, since a
 * repository that has one keeps all of it. Returns whether the file was written.
 */
export async function mergeGitignore(root: string): Promise<boolean> {
  const path = join(root, '.gitignore');
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  const present = new Set((existing ?? '').split('\n').map((line) => line.trim()));
  const missing = GITIGNORE_LINES.filter((line) => !present.has(line));
  if (missing.length === 0) return false;
  const head = existing === undefined ? '' : existing.endsWith('\n') || existing === '' ? existing : `${existing}\n`;
  await writeFile(path, `${head}# alertform: local databases and generated files\n${missing.join('\n')}\n`);
  return true;
}

/**
 * Writes a new definitions repository into `dir` (created when missing): alertform.yaml, an example channel and
 * alert, the JSON Schemas under .alertform/schemas/, editor settings, the GitHub workflow and .gitignore lines. Refuses when any of
 * those files exists, unless `force`. Returns the paths written, relative to `dir`.
 */
export async function initRepository(dir: string, options: { force?: boolean } = {}): Promise<string[]> {
  const root = resolve(dir);
  const files = await scaffoldFiles(root);
  const all = [...files.map((file) => file.path), ...shippedSchemaFiles().map(([name]) => `${SCHEMA_COPY_DIR}/${name}`)];
  if (!options.force) {
    const existing: string[] = [];
    for (const path of all) {
      if (await access(join(root, path)).then(() => true, () => false)) existing.push(path);
    }
    if (existing.length > 0) throw new ScaffoldConflict(existing);
  }
  for (const file of files) {
    await mkdir(dirname(join(root, file.path)), { recursive: true });
    await writeFile(join(root, file.path), file.text);
  }
  await copySchemas(root);
  return (await mergeGitignore(root)) ? [...all, '.gitignore'] : all;
}
