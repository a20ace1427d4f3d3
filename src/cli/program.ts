import { Command } from 'commander';
import { VERSION } from '../version.js';
import { registerServeCommand } from './commands/serve.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerApplyCommand } from './commands/apply.js';
import { registerPullCommand } from './commands/pull.js';
import { registerMuteCommands } from './commands/mute.js';
import { registerDeliveriesCommand } from './commands/deliveries.js';
import { registerStatusCommand } from './commands/status.js';
import { registerHistoryCommand } from './commands/history.js';
import { registerAckCommand } from './commands/ack.js';
import { registerAgentCommand } from './commands/agent.js';
import { registerTuiCommand } from './commands/tui.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerTestCommand } from './commands/test.js';
import { registerInitCommand } from './commands/init.js';
import { registerBackupCommand } from './commands/backup.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerCommentCommand } from './commands/comment.js';
import { registerImportCommand } from './commands/import.js';

/** Options every command accepts; commands read them with `command.optsWithGlobals()`. */
export interface GlobalOptions {
  server?: string;
  apiKey?: string;
  json?: boolean;
  verbose?: boolean;
  color?: boolean;
}

export function createProgram(): Command {
  const program = new Command('alertform')
    .description('Graphite alerts and notification channels as code, and a self-hosted /v2 alerting server.')
    .version(VERSION)
    .option('--server <url>', 'base URL of the /v2 API (env ALERTFORM_URL)')
    .option('--api-key <key>', 'API key (env ALERTFORM_API_KEY); never printed')
    .option('--json', 'machine-readable output')
    .option('--verbose', 'more detail')
    .option('--no-color', 'no colours (also NO_COLOR, and whenever output is not a terminal)')
    .addHelpText(
      'after',
      `
Examples:
  $ alertform init alerts                          # a new definitions repository in alerts/
  $ alertform serve --api-key 3f9c2a7e41d86b05e9a1c4d7  # the bundled /v2 server on SQLite (keys: 24+ characters)
  $ alertform validate examples/                   # check definitions, errors at file:line:column
  $ alertform test examples/                       # run the rule tests (*.test.yaml) offline
  $ alertform plan examples/ --server http://3f9c2a7e41d86b05e9a1c4d7@127.0.0.1:8080
  $ alertform apply examples/ --auto-approve
  $ alertform status                               # what is alerting now (exit 1 when anything is)
  $ alertform history "Disk full"                  # one alert's timeline
  $ alertform agent install collectd --carbon 127.0.0.1:2003
  $ source <(alertform completion bash)            # or zsh, fish

With --json, results and errors are one JSON document on stdout, with formatVersion (serve, demo and tui print text).
A server on this machine with nothing listening fails at once, not after retries, with a hint (start \`alertform
serve\` or set --server / ALERTFORM_URL); a 401 says to set ALERTFORM_API_KEY.`,
    );

  registerInitCommand(program);
  registerServeCommand(program);
  registerKeysCommand(program);
  registerBackupCommand(program);
  registerValidateCommand(program);
  registerTestCommand(program);
  registerPlanCommand(program);
  registerApplyCommand(program);
  registerCommentCommand(program);
  registerPullCommand(program);
  registerImportCommand(program);
  registerMuteCommands(program);
  registerDeliveriesCommand(program);
  registerStatusCommand(program);
  registerHistoryCommand(program);
  registerAckCommand(program);
  registerAgentCommand(program);
  registerTuiCommand(program);
  registerDemoCommand(program);
  registerCompletionCommand(program);
  pointToHelpAfterErrors(program);
  return program;
}

/**
 * A usage mistake (a bad flag, a missing argument) prints its one error and where the help is, never the whole
 * help: the error would scroll away above sixty lines of it.
 */
function pointToHelpAfterErrors(command: Command, path = 'alertform'): void {
  command.showHelpAfterError(`(run \`${path} --help\` for usage)`);
  for (const sub of command.commands) pointToHelpAfterErrors(sub, `${path} ${sub.name()}`);
}
