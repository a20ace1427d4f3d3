import type { AgentDefinition } from './agent-definition.js';
import { AlertformError } from '../model/errors.js';

export class PluginError extends AlertformError {
  constructor(message: string) {
    super('agent_plugin', message);
  }
}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The plugins to enable: the agent's defaults plus the ones named (`--plugins a,b`), or exactly `chosen` (the
 * TUI's custom list). Names are checked: they are written into config files.
 */
export function resolvePlugins(agent: AgentDefinition, options: { add?: readonly string[]; chosen?: readonly string[] }): string[] {
  const named = options.chosen ?? [...agent.defaultPlugins, ...(options.add ?? [])];
  const plugins = [...new Set(named.map((name) => name.trim()).filter(Boolean))];
  if (plugins.length === 0) throw new PluginError(`choose at least one plugin for ${agent.name}`);
  for (const name of plugins) {
    if (!NAME.test(name)) throw new PluginError(`'${name}' is not a plugin name (lower-case letters, digits and _)`);
    const known = agent.defaultPlugins.includes(name) || agent.optionalPlugins.includes(name);
    if (!known && !agent.acceptsOtherPlugins) {
      throw new PluginError(`${agent.name} has no plugin '${name}': choose from ${[...agent.defaultPlugins, ...agent.optionalPlugins].join(', ')}`);
    }
  }
  return plugins;
}

/** `a,b , c` -> [a, b, c]. */
export function splitPluginList(text: string | undefined): string[] {
  return (text ?? '').split(',').map((name) => name.trim()).filter(Boolean);
}
