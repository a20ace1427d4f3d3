import type { Command } from 'commander';
import { findAgent, listAgents } from '../../agent/agents/registry.js';
import { createCliContext, readAgentGlobals } from '../../agent/cli-context.js';
import type { FlowResult } from '../../agent/context.js';
import { installAgent } from '../../agent/install.js';
import { splitPluginList } from '../../agent/plugins.js';
import { uninstallAgent } from '../../agent/uninstall.js';
import { updateAgentKey } from '../../agent/update-apikey.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';

// `agent --list|install|update-apikey|uninstall`: loaded lazily, so that the other commands never load the installer.

export async function listAgentsCommand(options: { list?: boolean }, command: Command): Promise<void> {
  if (!options.list) {
    command.outputHelp();
    return;
  }
  const globals = readAgentGlobals(command);
  const agents = listAgents();
  if (globals.json) {
    await writeJson({ agents: agents.map((a) => ({ name: a.name, summary: a.summary, defaultPlugins: a.defaultPlugins, optionalPlugins: a.optionalPlugins })) });
    return;
  }
  for (const a of agents) process.stdout.write(`${a.name.padEnd(9)} ${a.summary}\n`);
}

export async function installAgentCommand(name: string, options: InstallCliOptions, command: Command): Promise<void> {
  const globals = readAgentGlobals(command);
  const context = createCliContext(globals, options.root);
  exitWith(
    await installAgent(context, findAgent(name)!, {
      apiKey: globals.apiKey,
      addPlugins: splitPluginList(options.plugins),
      carbon: options.carbon,
      prefix: options.prefix,
      config: options.config,
      dryRun: options.dryRun === true,
      verify: options.verify,
      server: globals.server,
    }),
  );
}

export async function updateAgentKeyCommand(name: string, options: UpdateCliOptions, command: Command): Promise<void> {
  const globals = readAgentGlobals(command);
  const context = createCliContext(globals, options.root);
  exitWith(
    await updateAgentKey(context, findAgent(name)!, {
      apiKey: globals.apiKey!,
      config: options.config,
      dryRun: options.dryRun === true,
      verify: options.verify,
      server: globals.server,
    }),
  );
}

export async function uninstallAgentCommand(name: string, options: UninstallCliOptions, command: Command): Promise<void> {
  const context = createCliContext(readAgentGlobals(command), options.root);
  exitWith(await uninstallAgent(context, findAgent(name)!, { config: options.config, dryRun: options.dryRun === true }));
}

export interface InstallCliOptions {
  plugins?: string;
  carbon?: string;
  prefix?: string;
  config?: string;
  root: string;
  dryRun?: boolean;
  verify: boolean;
}

export interface UpdateCliOptions {
  config: string;
  root: string;
  dryRun?: boolean;
  verify: boolean;
}

export interface UninstallCliOptions {
  config?: string;
  root: string;
  dryRun?: boolean;
}

/** The flow already printed its failure; only the exit code is left to set. */
function exitWith(result: FlowResult): void {
  if (!result.ok) throw new CliError('', result.exitCode);
}
