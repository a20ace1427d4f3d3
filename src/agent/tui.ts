import { checkbox, confirm, input, password, select } from '@inquirer/prompts';
import type { AgentDefinition } from './agent-definition.js';
import { listAgents } from './agents/registry.js';
import { checkKeyShape, formatCarbon, parseCarbon } from './carbon.js';
import type { AgentContext, FlowResult } from './context.js';
import { installAgent } from './install.js';
import { detectPlatform } from './platform.js';
import { uninstallAgent } from './uninstall.js';
import { updateAgentKey } from './update-apikey.js';
import { displayServer } from './verify-key.js';

export interface TuiOptions {
  dryRun: boolean;
  verify: boolean;
  carbon?: string;
  prefix?: string;
  server: string;
}

/** The prompt functions the TUI uses (the library's; tests of the flow may pass their own). */
export interface TuiPrompts {
  select: typeof select;
  password: typeof password;
  checkbox: typeof checkbox;
  confirm: typeof confirm;
  input: typeof input;
}

const PROMPTS: TuiPrompts = { select, password, checkbox, confirm, input };

type Action = 'install' | 'update-apikey' | 'uninstall';

/**
 * `alertform tui`: agent, then action, then the key (masked, checked at once; none for an install to a self-hosted
 * carbon), then default or custom plugins,
 * then confirm; then the same flow as the plain commands, with its progress. Keyboard only (inquirer prompts
 * work in tmux and over ssh). Ctrl-C in a prompt throws the library's ExitPromptError: nothing was changed yet.
 */
export async function runTui(context: AgentContext, options: TuiOptions, prompts: TuiPrompts = PROMPTS): Promise<FlowResult> {
  // A bad --carbon is said before any question.
  const carbon = parseCarbon(options.carbon);
  const agents = listAgents();
  const agent = await prompts.select<AgentDefinition>({
    message: 'Which agent?',
    choices: agents.map((a) => ({ name: a.name, value: a, description: a.summary })),
  });
  const action = await prompts.select<Action>({
    message: `What should happen to ${agent.name}?`,
    choices: [
      { name: 'install', value: 'install', description: 'install the package and write its config' },
      { name: 'update the API key', value: 'update-apikey', description: 'change only the key in an existing config' },
      { name: 'uninstall', value: 'uninstall', description: 'stop it and remove the package; the config is kept' },
    ],
  });

  if (action === 'uninstall') {
    if (!(await prompts.confirm({ message: `Uninstall ${agent.name}${options.dryRun ? ' (dry run)' : ''}?`, default: false }))) {
      return declined(context);
    }
    return uninstallAgent(context, agent, { dryRun: options.dryRun });
  }

  // A self-hosted carbon takes no key: installing to one asks for none (a key typed there would only be checked
  // against an API that has nothing to do with that carbon).
  const keyless = action === 'install' && !carbon.hosted;
  const apiKey = keyless
    ? ''
    : await prompts.password({
        message: `API key${options.verify ? ` (checked with ${displayServer(options.server)})` : ''}:`,
        mask: '*',
        validate: async (value) => {
          const problem = checkKeyShape(value.trim());
          if (problem) return problem;
          if (!options.verify) return true;
          const check = await context.checkKey(options.server, value.trim());
          return check.ok ? true : check.reason;
        },
      });
  const key = apiKey.trim();
  if (key) context.addSecret?.(key);

  if (action === 'update-apikey') {
    const platform = await detectPlatform(context.root, context.runner, context.host).catch(() => undefined);
    const config = await prompts.input({
      message: 'Config file to update:',
      default: platform ? agent.configPath(platform) : undefined,
      validate: (value) => (value.trim() ? true : 'the path of the config file'),
    });
    if (!(await prompts.confirm({ message: `Replace the API key in ${config.trim()}?`, default: true }))) return declined(context);
    return updateAgentKey(context, agent, { apiKey: key, config: config.trim(), dryRun: options.dryRun, verify: false, server: options.server });
  }

  const mode = await prompts.select<'default' | 'custom'>({
    message: 'Plugins?',
    choices: [
      { name: `default (${agent.defaultPlugins.join(', ')})`, value: 'default' },
      { name: 'custom: choose from a list', value: 'custom' },
    ],
  });
  const plugins =
    mode === 'default'
      ? [...agent.defaultPlugins]
      : await prompts.checkbox<string>({
          message: 'Plugins to enable (space toggles, enter confirms):',
          choices: [...agent.defaultPlugins, ...agent.optionalPlugins].map((name) => ({ name, value: name, checked: agent.defaultPlugins.includes(name) })),
          required: true,
          pageSize: agent.defaultPlugins.length + agent.optionalPlugins.length,
        });
  const where = carbon.hosted ? `${formatCarbon(carbon)} (hosted)` : formatCarbon(carbon);
  const go = await prompts.confirm({
    message: `${options.dryRun ? 'Dry run: show how to install' : 'Install'} ${agent.name} with ${plugins.join(', ')}, sending to ${where}?`,
    default: true,
  });
  if (!go) return declined(context);
  // The key was checked at the prompt: not again.
  return installAgent(context, agent, {
    apiKey: key || undefined,
    plugins,
    carbon: options.carbon,
    prefix: options.prefix,
    dryRun: options.dryRun,
    verify: false,
    server: options.server,
  });
}

function declined(context: AgentContext): FlowResult {
  context.output.out('Nothing was changed.\n');
  return { ok: true, exitCode: 0, report: { declined: true } };
}
