import { Argument, type Command } from 'commander';
import { AGENT_NAMES } from '../../agent/agent-definition.js';
import { HOSTED_CARBON_HOST, HOSTED_CARBON_PORT } from '../../agent/carbon.js';
import type { InstallCliOptions, UninstallCliOptions, UpdateCliOptions } from '../actions/agent.js';

const agentArgument = () => new Argument('<agent>', 'telegraf, otel or collectd').choices(AGENT_NAMES);

/** `alertform agent`: list, install, update-apikey, uninstall. */
export function registerAgentCommand(program: Command): void {
  const agent = program
    .command('agent')
    .description('install a metrics agent (telegraf, otel, collectd) that sends host metrics to Graphite')
    .option('-l, --list', 'list the agents')
    .addHelpText(
      'after',
      `
Examples:
  $ alertform agent --list
  $ sudo alertform agent install telegraf --api-key $KEY
  $ sudo alertform agent install collectd --carbon 127.0.0.1:2003     # your own carbon: no key needed
  $ sudo alertform agent update-apikey telegraf --api-key $NEW_KEY --config /etc/telegraf/telegraf.conf
  $ sudo alertform agent uninstall otel`,
    )
    .action(async (options: { list?: boolean }, command: Command) => {
      const { listAgentsCommand } = await import('../actions/agent.js');
      await listAgentsCommand(options, command);
    });

  agent
    .command('install')
    .description('install an agent and write its config so that metrics reach Graphite')
    .addArgument(agentArgument())
    .option('--api-key <key>', 'API key (or ALERTFORM_API_KEY); required for the hosted carbon endpoint; never printed')
    .option('--plugins <list>', 'plugins to add to the defaults, comma-separated (e.g. netstat,temp)')
    .option('--carbon <host:port>', `any carbon's plaintext endpoint, HOST:PORT or HOST (port 2003); no key needed (default: the hosted one, ${HOSTED_CARBON_HOST}:${HOSTED_CARBON_PORT})`)
    .option('--prefix <prefix>', 'metric prefix (default: the agent name; the hosted endpoint gets KEY.<prefix>)')
    .option('--config <path>', 'config file to write (default: the agent\'s usual path on this platform)')
    .option('--root <dir>', 'write every file under this directory instead of / (staging, tests)', '/')
    .option('--dry-run', 'print every command and file (with its content) and change nothing')
    .option('--no-verify', 'do not check the key against the API (offline hosts)')
    .addHelpText(
      'after',
      `
Metrics go to the hosted carbon endpoint, which routes them by API key, or with --carbon to any carbon (the
carbon-cache or relay of the Graphite that alertform serve reads): that needs no key, and none is read, checked or
written (an ALERTFORM_API_KEY kept for plan and apply is left alone). For the hosted endpoint the key is checked with
GET /v2/alerts/?max=1 on --server (or ALERTFORM_URL; default https://api.hostedgraphite.com) before anything is
installed.

Examples:
  $ sudo alertform agent install telegraf --api-key $KEY --plugins netstat,temp
  $ sudo alertform agent install otel --api-key $KEY --dry-run
  $ sudo alertform agent install collectd --carbon 127.0.0.1:2003 --prefix servers
  $ sudo alertform agent install telegraf --carbon graphite.internal   # port 2003`,
    )
    .action(async (name: string, options: InstallCliOptions, command: Command) => {
      const { installAgentCommand } = await import('../actions/agent.js');
      await installAgentCommand(name, options, command);
    });

  agent
    .command('update-apikey')
    .description('replace the API key in an agent config, and nothing else')
    .addArgument(agentArgument())
    .option('--api-key <key>', 'the new API key (required; or ALERTFORM_API_KEY); never printed')
    .requiredOption('--config <path>', 'the config file to change (required)')
    .option('--root <dir>', 'read and write the file under this directory instead of /', '/')
    .option('--dry-run', 'show the lines that would change and change nothing')
    .option('--no-verify', 'do not check the key against the API (offline hosts)')
    .addHelpText(
      'after',
      `
Only the key part of the prefix of graphite outputs that send to the hosted endpoint changes; every other byte
of the file stays. A file without a graphite output, or sending to a self-hosted carbon, is refused.

Examples:
  $ sudo alertform agent update-apikey telegraf --api-key $NEW_KEY --config /etc/telegraf/telegraf.conf
  $ sudo alertform agent update-apikey otel --api-key $NEW_KEY --config /etc/otelcol-contrib/config.yaml`,
    )
    .hook('preAction', async (_program, command) => {
      // The program's global --api-key takes the value wherever it is typed, so commander cannot enforce it here.
      const { readAgentGlobals } = await import('../../agent/cli-context.js');
      if (!readAgentGlobals(command).apiKey) {
        command.error("error: required option '--api-key <key>' not specified (or set ALERTFORM_API_KEY)", {
          code: 'commander.missingMandatoryOptionValue',
          exitCode: 1,
        });
      }
    })
    .action(async (name: string, options: UpdateCliOptions, command: Command) => {
      const { updateAgentKeyCommand } = await import('../actions/agent.js');
      await updateAgentKeyCommand(name, options, command);
    });

  agent
    .command('uninstall')
    .description('stop the agent and remove its package; its config is kept')
    .addArgument(agentArgument())
    .option('--config <path>', 'the config to keep (default: the agent\'s usual path)')
    .option('--root <dir>', 'files under this directory instead of /', '/')
    .option('--dry-run', 'print every command and change nothing')
    .addHelpText('after', '\nExamples:\n  $ sudo alertform agent uninstall telegraf\n  $ sudo alertform agent uninstall collectd --dry-run')
    .action(async (name: string, options: UninstallCliOptions, command: Command) => {
      const { uninstallAgentCommand } = await import('../actions/agent.js');
      await uninstallAgentCommand(name, options, command);
    });
}
