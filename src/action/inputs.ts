import * as core from '@actions/core';

/** The Action's inputs (action.yml), parsed. */
export interface ActionInputs {
  command: 'plan' | 'apply';
  path: string;
  serverUrl?: string;
  apiKey?: string;
  /** undefined: the project's alertform.yaml decides. */
  prune?: boolean;
  githubToken?: string;
  /** The login our PR comments are written as; undefined: the token's own (see resolveCommentAuthor). */
  commentAuthor?: string;
  comment: boolean;
  allowPlanChange: boolean;
  /** graphite-web root for the backtest and live checks; undefined: ALERTFORM_GRAPHITE_URL or alertform.yaml. */
  graphiteUrl?: string;
  impactWindow: string;
}

function readBoolean(name: string, fallback: boolean | undefined): boolean | undefined {
  const raw = core.getInput(name).trim().toLowerCase();
  if (raw === '') return fallback;
  if (['true', 'yes', '1', 'on'].includes(raw)) return true;
  if (['false', 'no', '0', 'off'].includes(raw)) return false;
  throw new Error(`input ${name} must be true or false, not "${raw}"`);
}

/**
 * Reads the inputs. The caller masks the secret ones (api-key, github-token, credentials in server-url) before it
 * prints anything. An empty command follows the event: pull_request plans, push applies.
 */
export function readInputs(eventName: string): ActionInputs {
  const apiKey = core.getInput('api-key') || undefined;
  const serverUrl = core.getInput('server-url') || undefined;
  const githubToken = core.getInput('github-token') || undefined;

  const rawCommand = core.getInput('command').trim().toLowerCase();
  const command = rawCommand === '' ? (eventName === 'push' ? 'apply' : 'plan') : rawCommand;
  if (command !== 'plan' && command !== 'apply') {
    throw new Error(`input command must be plan or apply, not "${rawCommand}"`);
  }
  return {
    command,
    path: core.getInput('path').trim() || '.',
    serverUrl,
    apiKey,
    prune: readBoolean('prune', undefined),
    githubToken,
    ...(core.getInput('comment-author').trim() ? { commentAuthor: core.getInput('comment-author').trim() } : {}),
    comment: readBoolean('comment', true) ?? true,
    allowPlanChange: readBoolean('allow-plan-change', false) ?? false,
    graphiteUrl: core.getInput('graphite-url').trim() || undefined,
    impactWindow: core.getInput('impact-window').trim() || '7d',
  };
}
