import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import type { ActionContext } from './context.js';
import { readEventContext } from './event.js';
import { readInputs } from './inputs.js';
import type { Reconciler } from './port.js';
import { createReconciler } from './reconciler.js';
import { runApplyCommand } from './run-apply.js';
import { runPlanCommand } from './run-plan.js';
import { findInterpolatedVariables, SecretRedactor } from './secrets.js';
import { secretsInUrl } from '../redact/index.js';

export interface RunActionOptions {
  /** Defaults to process.cwd(), where the runner starts the Action (the workspace). */
  cwd?: string;
  /** Defaults to the real reconciler (planProject, fingerprintPlan, applyPlan). */
  reconciler?: Reconciler;
}

/**
 * The Action, start to end. The only place that catches: every failure becomes core.setFailed with a masked
 * message, which sets the exit code the runner reads.
 */
export async function runAction(options: RunActionOptions = {}): Promise<void> {
  const env = process.env;
  const redactor = new SecretRedactor();
  try {
    const event = readEventContext(env);
    const inputs = readInputs(env.GITHUB_EVENT_NAME ?? '');
    redactor.add(inputs.apiKey);
    redactor.add(inputs.githubToken);
    redactor.add(env.ALERTFORM_API_KEY);
    for (const url of [inputs.serverUrl, env.ALERTFORM_URL, inputs.graphiteUrl, env.ALERTFORM_GRAPHITE_URL]) for (const secret of secretsInUrl(url)) redactor.add(secret);
    const cwd = options.cwd ?? process.cwd();
    const dir = resolve(cwd, inputs.path);
    for (const name of findInterpolatedVariables(dir)) redactor.add(env[name]);
    // Never used by the Action (see reconciler.ts), but a key committed there is still kept out of what it prints.
    for (const secret of secretsInUrl(readProjectServer(dir))) redactor.add(secret);
    const ctx: ActionContext = {
      inputs,
      event,
      env,
      cwd,
      dir,
      redactor,
      reconciler: options.reconciler ?? createReconciler(),
    };
    if (inputs.command === 'plan') await runPlanCommand(ctx);
    else await runApplyCommand(ctx);
  } catch (error) {
    core.setFailed(redactor.redact(error instanceof Error ? error.message : String(error)));
  }
}

/** The `server:` of alertform.yaml, which may carry the key as user-info (discouraged, but never printed). */
function readProjectServer(dir: string): string | undefined {
  try {
    return /^server:\s*["']?([^\s"']+)/m.exec(readFileSync(join(dir, 'alertform.yaml'), 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

