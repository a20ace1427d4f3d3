import { isAbsolute, relative, resolve } from 'node:path';
import { applyPlan, type ApplyEvent } from '../apply/run.js';
import { AlertformClient } from '../client/api.js';
import { planAgainstServer } from '../plan/make-plan.js';
import { fingerprintPlan } from '../plan/fingerprint.js';
import { renderPlanJson } from '../plan/render/json.js';
import { renderPlanMarkdown } from '../plan/render/markdown.js';
import { describeChange, renderSummaryLine } from '../plan/render/summary.js';
import type { Plan } from '../plan/types.js';
import type { Problem } from '../spec/problems.js';
import { DEFAULT_MAX_DELETES, type ProjectConfig, type PruneConfig } from '../spec/project.js';
import { loadProject } from '../spec/source.js';
import type { DefinitionProblem, PlanRequest, Reconciler } from './port.js';

/**
 * The real reconciler behind the Action's port: src/spec loads and validates, src/plan computes, renders and
 * hashes (fingerprintPlan), src/apply applies. Thin on purpose: no planning happens here.
 */
export function createReconciler(): Reconciler {
  return {
    async plan(request) {
      const loaded = await loadProject(request.dir, { env: request.env });
      if (loaded.problems.length > 0) return { status: 'invalid', problems: loaded.problems.map((p) => toDefinitionProblem(p, request.cwd)) };
      const client = new AlertformClient(resolveServer(request, loaded.config));
      const { plan, actual } = await planAgainstServer(loaded.definitions, client, { prune: resolvePrune(request.prune, loaded.config) });
      if (plan.problems.length > 0) return { status: 'invalid', problems: plan.problems.map((p) => toDefinitionProblem(p, request.cwd)) };
      // Sources as the workspace shows them (the loader names files relative to process.cwd()); the hash ignores them.
      for (const change of plan.changes) if (change.source) change.source = { ...change.source, file: showPath(change.source.file, request.cwd) };
      const counts = { create: plan.summary.create, update: plan.summary.update, delete: plan.summary.delete, mute: plan.summary.mute, unmute: plan.summary.unmute };
      return {
        status: 'planned',
        counts,
        changes: plan.changes.map((c) => ({ action: c.action, kind: c.kind, name: c.key, ...(c.source ? { file: c.source.file } : {}) })),
        summaryLine: renderSummaryLine(plan),
        markdown: renderPlanMarkdown(plan, { title: request.title }),
        json: renderPlanJson(plan),
        hash: fingerprintPlan(plan),
        async apply() {
          const lines: string[] = [];
          const result = await applyPlan(plan, actual, client, { onEvent: (event) => lines.push(describeEvent(event)) });
          lines.push(`${result.done.length} done, ${result.failed.length} failed, ${result.skipped.length} skipped`);
          return { ok: result.failed.length === 0 && result.skipped.length === 0, done: result.done.length, failed: result.failed.length, skipped: result.skipped.length, report: lines.join('\n') };
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

/** prune: true without globs in alertform.yaml manages every name (still capped by max_deletes). */
function resolvePrune(input: boolean | undefined, config: ProjectConfig): PruneConfig | false {
  if (input === undefined) return config.prune;
  if (!input) return false;
  return config.prune || { match: ['*'], max_deletes: DEFAULT_MAX_DELETES };
}

/** A path relative to the workspace when it is inside it. */
function showPath(file: string, cwd: string): string {
  const abs = resolve(file);
  const rel = relative(cwd, abs);
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

function describeEvent(event: ApplyEvent): string {
  switch (event.type) {
    case 'done':
      return `done     ${describeChange(event.change)} (${event.ms} ms)`;
    case 'failed':
      return `FAILED   ${describeChange(event.change)}: ${event.error.message}`;
    case 'skipped':
      return `skipped  ${describeChange(event.change)}: ${event.reason}`;
  }
}

export type { Plan };
