import { isAbsolute, relative, resolve } from 'node:path';
import { applyPlan, renderApplySummary, renderProgressLine } from '../apply/index.js';
import type { Problem } from '../definitions/problems.js';
import { fingerprintPlan } from '../plan/fingerprint.js';
import { planProject } from '../plan/plan-project.js';
import type { Reconciler } from './port.js';
import { backtestPlan, DEFAULT_IMPACT_WINDOW, resolveGraphiteUrl } from '../impact/backtest-plan.js';

/**
 * Where the Action may take the server from, and what it says when there is none. Never alertform.yaml: the
 * checkout is the pull request's, and the key must only go where the workflow (not the PR) says.
 */
export const ACTION_SERVER_HINT =
  'set the server-url input or ALERTFORM_URL in the workflow (the Action never takes the server from alertform.yaml: ' +
  'a pull request can edit that file, and the API key would follow it)';

/**
 * The real reconciler behind the Action's port (the entry points of docs/reconciler.md): planProject loads,
 * resolves the server, reads and computes; fingerprintPlan hashes; applyPlan applies. Thin on purpose: no planning
 * happens here.
 */
export function createReconciler(): Reconciler {
  return {
    async plan(request) {
      const result = await planProject({
        dir: request.dir,
        env: request.env,
        server: { given: { server: request.serverUrl, apiKey: request.apiKey }, trustProjectServer: false, missingHint: ACTION_SERVER_HINT },
        ...(request.prune !== undefined ? { prune: request.prune } : {}),
      });
      if (result.status === 'invalid') return { status: 'invalid', problems: result.problems.map((p) => showProblem(p, request.cwd)) };
      const { plan, actual, client, loaded } = result;
      const graphiteUrl = resolveGraphiteUrl(request.graphiteUrl, loaded.config, request.env);
      const impact =
        graphiteUrl && request.impact !== false
          ? await backtestPlan(plan, { graphiteUrl, window: request.impactWindow ?? DEFAULT_IMPACT_WINDOW, definitions: loaded.definitions, actual })
          : undefined;
      const problems = [...plan.problems, ...(impact?.problems ?? [])];
      if (problems.length > 0) return { status: 'invalid', problems: problems.map((p) => showProblem(p, request.cwd)) };
      // Sources as the workspace shows them (the loader names files relative to process.cwd()); the hash ignores them.
      for (const change of plan.changes) if (change.source) change.source = { ...change.source, file: showPath(change.source.file, request.cwd) };
      return {
        status: 'planned',
        plan,
        ...(impact ? { impact } : {}),
        hash: fingerprintPlan(plan),
        async apply() {
          const lines: string[] = [];
          const outcome = await applyPlan(plan, actual, client, { onEvent: (event) => lines.push(renderProgressLine(event)) });
          lines.push(renderApplySummary(outcome));
          const failed = outcome.failed.length;
          const skipped = outcome.skipped.length;
          return { ok: failed === 0 && skipped === 0, done: outcome.done.length, failed, skipped, report: lines.join('\n') };
        },
      };
    },
  };
}

/** A path relative to the workspace when it is inside it. */
function showPath(file: string, cwd: string): string {
  const rel = relative(cwd, resolve(file));
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

function showProblem(problem: Problem, cwd: string): Problem {
  return problem.location ? { ...problem, location: { ...problem.location, file: showPath(problem.location.file, cwd) } } : problem;
}
