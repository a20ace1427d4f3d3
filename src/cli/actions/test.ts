import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Command } from 'commander';
import { Chalk } from 'chalk';
import { loadProject } from '../../definitions/source.js';
import { formatProblem, type Problem, type SourceLocation } from '../../definitions/problems.js';
import { findRuleTestFiles, readRuleTestFile } from '../../rule-tests/read-rule-tests.js';
import { runRuleTest, type RuleTestResult } from '../../rule-tests/run-rule-test.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';
import { resolveGraphiteUrl } from '../../impact/backtest-plan.js';
import { needsGraphite, resolveCarbon, runRuleTestOnGraphite, type GraphiteTestTarget } from '../../rule-tests/graphite-rule-test.js';
import { failOnProblems, optionsOf, useColor, writeOut } from '../context.js';

function where(location: SourceLocation): string {
  return `${location.file}:${location.line}`;
}

/** `test`: loaded lazily so other commands start fast. */
export async function runTests(dir: string, command: Command): Promise<void> {
  const opts = optionsOf<{ graphiteUrl?: string; carbon?: string; requireAll?: boolean }>(command);
  const loaded = await loadProject(dir);
  failOnProblems(loaded.problems);
  const graphiteUrl = resolveGraphiteUrl(opts.graphiteUrl, loaded.config, process.env);
  let target: GraphiteTestTarget | undefined;
  try {
    target = graphiteUrl ? { graphiteUrl, carbon: resolveCarbon(opts.carbon, graphiteUrl) } : undefined;
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const files = await findRuleTestFiles(dir);
  const problems: Problem[] = [];
  const results: RuleTestResult[] = [];
  for (const file of files) {
    const shown = relative(process.cwd(), file).startsWith('..') ? file : relative(process.cwd(), file);
    const read = readRuleTestFile(shown, await readFile(file, 'utf8'));
    problems.push(...read.problems);
    for (const test of read.cases) {
      results.push(target && needsGraphite(test, loaded.definitions) ? await runRuleTestOnGraphite(test, loaded.definitions, target) : runRuleTest(test, loaded.definitions));
    }
  }
  const count = (status: RuleTestResult['status']) => results.filter((r) => r.status === status).length;
  const totals = { passed: count('passed'), failed: count('failed'), notRun: count('not_run') };

  if (opts.json) {
    await writeJson({ ...totals, files: files.length, problems: problems.map((p) => ({ ...p, text: formatProblem(p) })), results });
  } else {
    const c = new Chalk({ level: useColor(opts) ? 1 : 0 });
    const lines: string[] = [];
    for (const p of problems) lines.push(c.red(`error: ${formatProblem(p)}`));
    for (const r of results) {
      if (r.status === 'passed') lines.push(`${c.green('PASS')}     ${where(r.location)}  ${r.name}`);
      else if (r.status === 'not_run') lines.push(`${c.yellow('NOT RUN')}  ${where(r.location)}  ${r.name}: ${r.reason}`);
      else {
        lines.push(`${c.red('FAIL')}     ${where(r.location)}  ${r.name}`);
        for (const f of r.failures) lines.push(`           ${where(f.location)}  ${f.message}`);
      }
    }
    if (files.length === 0) lines.push(`No rule tests (*.test.yaml) under ${dir}.`);
    else lines.push(`${totals.passed} passed, ${totals.failed} failed, ${totals.notRun} not run, in ${files.length} file(s).`);
    // A NOT RUN test proved nothing: the summary says so in words, not only in a count.
    if (totals.notRun > 0) {
      lines.push(
        opts.requireAll
          ? c.red(`${totals.notRun} test(s) did NOT RUN, and --require-all makes that a failure.`)
          : c.yellow(`${totals.notRun} test(s) did NOT RUN and prove nothing; exit 0 counts only the tests that ran (--require-all fails instead).`),
      );
    }
    await writeOut(`${lines.join('\n')}\n`);
  }
  if (problems.length > 0 || totals.failed > 0) throw new CliError('', 1);
  if (opts.requireAll && totals.notRun > 0) throw new CliError('', 1);
}
