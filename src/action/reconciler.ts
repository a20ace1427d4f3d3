import { isAbsolute, relative, resolve } from 'node:path';
import { applyPlan, renderApplySummary, renderProgressLine } from '../apply/index.js';
import { AlertformClient } from '../client/index.js';
import { fingerprintPlan, planAgainstServer, renderPlanJson, renderPlanMarkdown, renderSummaryLine } from '../plan/index.js';
import type { Problem } from '../definitions/problems.js';
import type { ProjectConfig, PruneConfig } from '../definitions/project.js';
import { loadProject } from '../definitions/source.js';
import type { DefinitionProblem, PlanRequest, Reconciler } from './port.js';
import { attachImpact, DEFAULT_IMPACT_WINDOW, resolveGraphiteUrl } from '../impact/attach-impact.js';

/**
 * The real reconciler behind the Action's port (the entry points of docs/reconciler.md): src/spec loads and
 * validates, src/plan computes, renders and hashes (fingerprintPlan), src/apply applies. Thin on purpose: no
 * planning happens here.
 */
export function createReconciler(): Reconciler {
  return {
    async plan(request) {
      const loaded = await loadProject(request.dir, { env: request.env });
      if (loaded.problems.length > 0) return { status: 'invalid', problems: loaded.problems.map((p) => toDefinitionProblem(p, request.cwd)) };
      const client = new AlertformClient(resolveServer(request, loaded.config));
      const { plan, actual } = await planAgainstServer(loaded.definitions, client, { prune: resolvePrune(request.prune, loaded.config) });
      const graphiteUrl = resolveGraphiteUrl(request.graphiteUrl, loaded.config, request.env);
      if (graphiteUrl && request.impact !== false) {
        await attachImpact(plan, { graphiteUrl, window: request.impactWindow ?? DEFAULT_IMPACT_WINDOW, definitions: loaded.definitions, actual });
      }
      if (plan.problems.length > 0) return { status: 'invalid', problems: plan.problems.map((p) => toDefinitionProblem(p, request.cwd)) };
      // Sources as the workspace shows them (the loader names files relative to process.cwd()); the hash ignores them.
      for (const change of plan.changes) if (change.source) change.source = { ...change.source, file: showPath(change.source.file, request.cwd) };
      const { summary } = plan;
      return {
        status: 'planned',
        counts: { create: summary.create, update: summary.update, delete: summary.delete, mute: summary.mute, unmute: summary.unmute },
        changes: plan.changes.map((c) => ({ action: c.action, kind: c.kind, name: c.key, ...(c.source ? { file: c.source.file } : {}) })),
        summaryLine: renderSummaryLine(plan),
        markdown: renderPlanMarkdown(plan, { title: request.title }),
        json: renderPlanJson(plan),
        hash: fingerprintPlan(plan),
        async apply() {
          const lines: string[] = [];
          const result = await applyPlan(plan, actual, client, { onEvent: (event) => lines.push(renderProgressLine(event)) });
          lines.push(renderApplySummary(result));
          const failed = result.failed.length;
          const skipped = result.skipped.length;
          return { ok: failed === 0 && skipped === 0, done: result.done.length, failed, skipped, report: lines.join('\n') };
        },
      };
    },
  };
}

/** Inputs over env (ALERTFORM_URL, ALERTFORM_API_KEY) over alertform.yaml, as the CLI resolves them. */
function resolveServer(request: PlanRequest, config: ProjectConfig): { server: string; apiKey?: string } {
  const server = request.serverUrl ?? request.env.ALERTFORM_URL ?? config.server;
  if (!server) throw new Error('no server: set the server-url input, ALERTFORM_URL, or `server:` in alertform.yaml');
  const apiKey = request.apiKey ?? request.env.ALERTFORM_API_KEY;
  return { server, ...(apiKey ? { apiKey } : {}) };
}

/**
 * The prune input turns pruning off, or on with alertform.yaml's globs. It never invents globs: deleting every
 * object of an account that these files do not define is too wide a default (other teams may share the account).
 */
function resolvePrune(input: boolean | undefined, config: ProjectConfig): PruneConfig | false {
  if (input === undefined) return config.prune;
  if (!input) return false;
  if (!config.prune) throw new Error('prune: true needs `prune: {match: [globs]}` in alertform.yaml, naming what this repository owns');
  return config.prune;
}

/** A path relative to the workspace when it is inside it. */
function showPath(file: string, cwd: string): string {
  const rel = relative(cwd, resolve(file));
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

function toDefinitionProblem(problem: Problem, cwd: string): DefinitionProblem {
  const file = problem.location?.file;
  return {
    file: file ? showPath(file, cwd) : '(server)',
    ...(problem.location ? { line: problem.location.line, column: problem.location.column } : {}),
    path: problem.path,
    message: problem.message,
  };
}
