import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFINITION_FILE_GLOBS, isDefinitionFile, isRuleTestFile, RULE_TEST_FILE_GLOBS } from '../../../src/definitions/file-rules.js';
import { listDefinitionFiles } from '../../../src/definitions/load.js';
import { findRuleTestFiles } from '../../../src/rule-tests/read-rule-tests.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('the file-skip rules', () => {
  it('are the same for definitions and rule tests: dot-directories, node_modules, workflows/ and server configs are never read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'alertform-files-'));
    dirs.push(dir);
    const files = [
      'alertform.yaml',
      'alertform-server.yaml',
      'deploy/alertform-server.yaml',
      'alerts.yaml',
      'team/channels.yml',
      'team/alertform.yaml',
      'team/api.test.yaml',
      '.github/ci.yaml',
      '.github/ci.test.yaml',
      'node_modules/pkg/x.yaml',
      'workflows/deploy.yaml',
      'workflows/deploy.test.yaml',
      'notes.txt',
    ];
    for (const file of files) {
      await mkdir(join(dir, file, '..'), { recursive: true });
      await writeFile(join(dir, file), '{}\n');
    }
    const rel = (paths: string[]) => paths.map((path) => relative(dir, path).split('\\').join('/'));
    expect(rel(await listDefinitionFiles(dir))).toEqual(['alerts.yaml', 'team/alertform.yaml', 'team/channels.yml']);
    expect(rel(await findRuleTestFiles(dir))).toEqual(['team/api.test.yaml']);
    // The same verdicts on paths alone, as a git revision's listing is judged.
    expect(files.filter(isDefinitionFile)).toEqual(['alerts.yaml', 'team/channels.yml', 'team/alertform.yaml']);
    expect(files.filter(isRuleTestFile)).toEqual(['team/api.test.yaml']);
  });
});

/** An editor's verdict on a root-relative path: a plain glob matches it and no `!` glob does. */
function globsMatch(globs: string[], path: string): boolean {
  const matches = (glob: string) => picomatch(glob, { dot: true })(path);
  return globs.filter((glob) => !glob.startsWith('!')).some(matches) && !globs.filter((glob) => glob.startsWith('!')).some((glob) => matches(glob.slice(1)));
}

describe('the globs init writes into the editor settings', () => {
  it('give the same verdicts as the predicates', () => {
    const paths = [
      'alertform.yaml',
      'alertform-server.yaml',
      'deploy/alertform-server.yaml',
      'alerts.yaml',
      'alerts.yml',
      'team/channels.yml',
      'team/alertform.yaml',
      'team/api.test.yaml',
      'api.test.yml',
      '.gitlab-ci.yml',
      'team/.yamllint.yaml',
      '.github/ci.yaml',
      '.github/workflows/alertform.yml',
      'team/.hidden/x.yaml',
      '.github/ci.test.yaml',
      'node_modules/pkg/x.yaml',
      'team/node_modules/x.test.yaml',
      'workflows/deploy.yaml',
      'workflows/deploy.test.yaml',
      'ci/include.yml',
      'team/ci/include.test.yml',
      'notes.txt',
    ];
    for (const path of paths) {
      expect(globsMatch(DEFINITION_FILE_GLOBS, path), `definitions: ${path}`).toBe(isDefinitionFile(path));
      expect(globsMatch(RULE_TEST_FILE_GLOBS, path), `rule test: ${path}`).toBe(isRuleTestFile(path));
    }
  });
});
