import type { Command } from 'commander';
import { CliError } from '../errors.js';

/** `alertform tui`: the agent installer, interactive. */
export function registerTuiCommand(program: Command): void {
  program
    .command('tui')
    .description('the agent installer, interactive: choose agent, action, key and plugins with the keyboard')
    .option('--carbon <host:port>', 'carbon endpoint (default: the hosted one)')
    .option('--prefix <prefix>', 'metric prefix (default: the agent name)')
    .option('--root <dir>', 'write every file under this directory instead of /', '/')
    .option('--dry-run', 'show every command and file at the end and change nothing')
    .option('--no-verify', 'do not check the key against the API (offline hosts)')
    .addHelpText(
      'after',
      `
Keys: arrows move, space toggles a plugin, enter confirms, Ctrl-C leaves (nothing half-written).
The key is typed masked and checked at once with GET /v2/alerts/?max=1 on --server (or ALERTFORM_URL).

Examples:
  $ sudo alertform tui
  $ alertform tui --dry-run --server http://127.0.0.1:8080`,
    )
    .action(async (options: { carbon?: string; prefix?: string; root: string; dryRun?: boolean; verify: boolean }, command: Command) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        throw new CliError('alertform tui needs a terminal; in scripts use `alertform agent install|update-apikey|uninstall`');
      }
      // Loaded here: the prompts library and the installer are for this command only.
      const [{ createCliContext, readAgentGlobals }, { runTui }] = await Promise.all([
        import('../../agent/cli-context.js'),
        import('../../agent/tui.js'),
      ]);
      const globals = readAgentGlobals(command);
      const context = createCliContext({ ...globals, json: false }, options.root);
      try {
        const result = await runTui(context, {
          dryRun: options.dryRun === true,
          verify: options.verify,
          carbon: options.carbon,
          prefix: options.prefix,
          server: globals.server,
        });
        if (!result.ok) throw new CliError('', result.exitCode);
      } catch (error) {
        if (error instanceof Error && error.name === 'ExitPromptError') {
          process.stdout.write('\nCancelled: nothing was changed.\n');
          throw new CliError('', 130);
        }
        throw error;
      }
    });
}
