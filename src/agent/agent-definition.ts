import type { CarbonTarget } from './carbon.js';
import type { GraphiteOutput } from './key-fields.js';
import type { Platform } from './platform.js';
import type { FileRoot } from './root.js';
import type { CommandRunner } from './runner.js';
import type { Step } from './steps.js';

export const AGENT_NAMES = ['telegraf', 'otel', 'collectd'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** What a config template needs. */
export interface ConfigInput {
  plugins: readonly string[];
  carbon: CarbonTarget;
  /** The full metric prefix (with the key for the hosted endpoint). */
  prefix: string;
}

/** Everything the installer knows about one agent; one file per agent implements it. */
export interface AgentDefinition {
  name: AgentName;
  /** One line for `agent --list`. */
  summary: string;
  defaultPlugins: readonly string[];
  optionalPlugins: readonly string[];
  /** Whether names outside both lists are accepted (telegraf inputs, collectd plugins) or refused (otel). */
  acceptsOtherPlugins: boolean;
  packageName(platform: Platform): string;
  /** The systemd unit, which is also the Homebrew formula. */
  service: string;
  configPath(platform: Platform): string;
  /** The steps that put the package on a host where it is missing (repository, download, install). */
  packageSteps(platform: Platform, runner: CommandRunner, root: FileRoot): Step[];
  renderConfig(input: ConfigInput): string;
  /** The graphite outputs of a config file, with their prefix fields. Throws ConfigFormatError. */
  findGraphiteOutputs(text: string): GraphiteOutput[];
  /** For messages: what a graphite output is called in this agent's config. */
  graphiteOutputName: string;
}
