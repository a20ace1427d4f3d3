import type { Command } from 'commander';
import { parseCount } from '../parse.js';

/** `alertform demo` (`npm run demo`): the bundled server on SQLite, examples/ planned and applied, then a clean plan. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('start the bundled server with a demo key, plan and apply examples/ against it, then plan again; a built-in demo Graphite keeps one alert alerting for the web console')
    .option('--dir <dir>', 'where the demo keeps its database and key', '.alertform-demo')
    .option('--port <port>', 'port of the server (0 picks a free one; a busy 8080 falls back to a free one)', parseCount, 8080)
    .option('--exit', 'stop the server after the second plan instead of keeping it running')
    .addHelpText(
      'after',
      `
Examples:
  $ npm run demo                      # then open the printed console URL, sign in with the printed key; Ctrl-C stops
  $ ./bin/alertform demo --port 0 --exit
  $ rm -rf .alertform-demo            # start over`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const { runDemo } = await import('../actions/demo.js');
      await runDemo(command);
    });
}
