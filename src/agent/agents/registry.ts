import { AGENT_NAMES, type AgentDefinition, type AgentName } from '../agent-definition.js';
import { collectd } from './collectd.js';
import { otel } from './otel.js';
import { telegraf } from './telegraf.js';

const AGENTS: Record<AgentName, AgentDefinition> = { telegraf, otel, collectd };

export function listAgents(): AgentDefinition[] {
  return AGENT_NAMES.map((name) => AGENTS[name]);
}

/** The agent of that name, or undefined. */
export function findAgent(name: string): AgentDefinition | undefined {
  return (AGENT_NAMES as readonly string[]).includes(name) ? AGENTS[name as AgentName] : undefined;
}
