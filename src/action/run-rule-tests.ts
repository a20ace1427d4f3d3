import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { formatProblem } from '../definitions/problems.js';
import { loadProject } from '../definitions/source.js';
import { findRuleTestFiles, readRuleTestFile } from '../rule-tests/read-rule-tests.js';
import { runRuleTest, type RuleTestResult } from '../rule-tests/run-rule-test.js';

/** The rule tests of a plan run: the comment's section, and whether the job must fail. */
export interface RuleTestsOutcome {
  markdown: string;
  failed: boolean;
  summary: string;
}

/**
 * Runs the `*.test.yaml` rule tests of the definitions directory (what `alertform test` runs), when there are
 * any: undefined when there are none. Paths are shown relative to the workspace.
 */
export async function runRuleTestsForAction(dir: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RuleTestsOutcome | undefined> {
  const files = await findRuleTestFiles(dir);
  if (files.length === 0) return undefined;
  const loaded = await loadProject(dir, { env });
  const problems = [];
  const results: RuleTestResult[] = [];
  for (const file of files) {
    const read = readRuleTestFile(relative(cwd, file), await readFile(file, 'utf8'));
    problems.push(...read.problems);
    for (const test of read.cases) results.push(runRuleTest(test, loaded.definitions));
  }
  const count = (status: RuleTestResult['status']) => results.filter((r) => r.status === status).length;
  const summary = `Rule tests: ${count('passed')} passed, ${count('failed')} failed, ${count('not_run')} not run${problems.length > 0 ? `, ${problems.length} problem(s) in the test files` : ''}`;
  const lines = [`#### ${summary}`, ''];
  const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
  for (const p of problems) lines.push(`- ❌ ${code(formatProblem(p))}`);
  for (const r of results) {
    const at = `${r.location.file}:${r.location.line}`;
    if (r.status === 'passed') lines.push(`- ✅ ${code(r.name)} (${code(at)})`);
    else if (r.status === 'not_run') lines.push(`- ⏭️ not run: ${code(r.name)} (${code(at)}): ${r.reason?.replace(/`/g, "'")}`);
    else lines.push(`- ❌ ${code(r.name)} (${code(at)}): ${r.failures.map((f) => `${code(`${f.location.file}:${f.location.line}`)} ${f.message.replace(/`/g, "'")}`).join('; ')}`);
  }
  return { markdown: lines.join('\n'), failed: problems.length > 0 || count('failed') > 0, summary };
}
