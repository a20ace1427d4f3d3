import type { Command } from 'commander';
import { HOSTED_API_URL } from './carbon.js';
import type { AgentContext } from './context.js';
import { createMasker } from './mask.js';
import { secretsInUrl } from '../redact/index.js';
import { resolveServer } from '../client/resolve-server.js';
import { createOutput } from './output.js';
import { currentHostFacts } from './platform.js';
import { FileRoot } from './root.js';
import { runnerFromEnv } from './runner.js';
import type { Progress } from './steps.js';
import { checkApiKey } from './verify-key.js';

/** The options every agent command reads from the program (global) level or the environment. */
export interface AgentGlobals {
  apiKey?: string;
  server: string;
  json: boolean;
  color: boolean;
}

export function readAgentGlobals(command: Command, env: NodeJS.ProcessEnv = process.env): AgentGlobals {
  const globals = command.optsWithGlobals<{ apiKey?: string; server?: string; json?: boolean; color?: boolean }>();
  const resolved = resolveServer({
    given: { server: globals.server, apiKey: globals.apiKey },
    env,
    fallback: HOSTED_API_URL,
    missingHint: 'pass --server URL or set ALERTFORM_URL',
  });
  return {
    apiKey: resolved.apiKey,
    server: resolved.server,
    json: globals.json === true,
    color: globals.color !== false && !env.NO_COLOR,
  };
}

/**
 * The context of a real run: real runner (or the recording one when ALERTFORM_AGENT_RUNNER=record:FILE), real
 * host facts, output masked for the key and any user-info of the server URL. Ctrl-C cancels between steps.
 */
export function createCliContext(globals: AgentGlobals, rootDir: string, extraSecrets: (string | undefined)[] = []): AgentContext {
  const mask = createMasker([globals.apiKey, ...secretsInUrl(globals.server), ...extraSecrets]);
  const output = createOutput(mask, process, { color: globals.color && process.stdout.isTTY === true });
  let current: Progress | undefined;
  process.once('SIGINT', () => {
    if (!current) process.exit(130);
    current.cancel();
    output.err('\nCtrl-C: stopping after the current step (files are written whole or not at all).\n');
    process.once('SIGINT', () => process.exit(130));
  });
  return {
    root: new FileRoot(rootDir),
    runner: runnerFromEnv(),
    host: currentHostFacts(),
    output,
    json: globals.json,
    checkKey: checkApiKey,
    addSecret: (secret) => mask.add(secret),
    onProgress: (progress) => (current = progress),
  };
}

