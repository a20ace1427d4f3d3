import type { HostFacts } from './platform.js';
import type { FileRoot } from './root.js';
import type { CommandRunner } from './runner.js';
import type { Output } from './output.js';
import type { KeyCheck } from './verify-key.js';
import type { Progress } from './steps.js';
import { AlertformError } from '../model/errors.js';

/** Everything a flow touches outside itself; tests pass their own. */
export interface AgentContext {
  root: FileRoot;
  runner: CommandRunner;
  host: HostFacts;
  output: Output;
  /** One JSON document on stdout instead of text. */
  json: boolean;
  checkKey(server: string, key: string): Promise<KeyCheck>;
  /** Masks a secret learnt after start (the key typed in the TUI) in all further output. */
  addSecret?(secret: string): void;
  /** Called with each flow's Progress, so that Ctrl-C can cancel between steps. */
  onProgress?(progress: Progress): void;
}

/** How a flow ended: the CLI exits with exitCode; the report is what --json printed. */
export interface FlowResult {
  ok: boolean;
  exitCode: number;
  report: Record<string, unknown>;
}

/** A refusal before any step: bad option values, missing key, nothing to update... */
export class AgentInputError extends AlertformError {
  constructor(message: string) {
    super('agent_input', message);
  }
}
