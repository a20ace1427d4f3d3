import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TempGitRepo } from '../../helpers/git-repo.js';
import { loadProject } from '../../../src/definitions/source.js';

let repo: TempGitRepo;
let first: string;

beforeAll(async () => {
  repo = await createGitRepo();
  first = await repo.commit({
    'defs/alertform.yaml': 'prune:\n  match: ["team-*"]\n',
    'defs/alerts.yaml': 'alerts:\n  - {name: team-cpu, metric: cpu, alert_criteria: {type: above, above_value: 80}}\n',
    'defs/.hidden/x.yaml': 'not: definitions\n',
  });
  await repo.commit({ 'defs/alerts.yaml': 'alerts:\n  - {name: team-cpu, metric: cpu, alert_criteria: {type: above, above_value: 90}}\n' });
  // An uncommitted, broken edit in the work tree: --ref must not see it, nor touch it.
  writeFileSync(join(repo.dir, 'defs/alerts.yaml'), 'alerts: [broken\n');
});
afterAll(() => repo.cleanup());

describe('definitions at a git revision', () => {
  it('reads the files as they were at the ref, project config included, leaving the work tree alone', async () => {
    const loaded = await loadProject(join(repo.dir, 'defs'), { ref: first, env: {} });
    expect(loaded.problems).toEqual([]);
    expect(loaded.definitions.alerts[0]!.spec.alert_criteria.above_value).toBe(80);
    expect(loaded.definitions.alerts[0]!.location.file).toBe(`${first}:defs/alerts.yaml`);
    expect(loaded.config.prune).toEqual({ match: ['team-*'], max_deletes: 10 });
    expect((await loadProject(join(repo.dir, 'defs'), { ref: 'HEAD', env: {} })).definitions.alerts[0]!.spec.alert_criteria.above_value).toBe(90);
    expect(readFileSync(join(repo.dir, 'defs/alerts.yaml'), 'utf8')).toBe('alerts: [broken\n');
    expect((await repo.git.status()).modified).toEqual(['defs/alerts.yaml']);
  });

  it('says plainly when the revision does not exist', async () => {
    await expect(loadProject(join(repo.dir, 'defs'), { ref: 'no-such-branch' })).rejects.toThrow('unknown git revision "no-such-branch"');
  });
});
