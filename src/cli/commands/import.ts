import type { Command } from 'commander';

/** `alertform import moira|grafana SOURCE... --out DIR`: another tool's alert rules as reviewed definitions. */
export function registerImportCommand(program: Command): void {
  const command = program
    .command('import')
    .description("turn Moira triggers or Grafana's Graphite alert rules into definitions, with a report of what did not come over");
  for (const tool of ['moira', 'grafana'] as const) {
    command
      .command(`${tool} <source...>`)
      .description(tool === 'moira' ? 'import Moira triggers (and the subscriptions and contacts that route them)' : "import Grafana alert rules on a Graphite data source (and their contact points)")
      .requiredOption('--out <dir>', 'directory to write alerts-*.yaml, channels.yaml, schedules.yaml and IMPORT-REPORT.md into')
      .addHelpText('after', tool === 'moira' ? MOIRA_HELP : GRAFANA_HELP)
      .action(async (sources: string[], _opts: unknown, sub: Command) => {
        const { runImport } = await import('../actions/import.js');
        await runImport(tool, sources, sub);
      });
  }
}

const MOIRA_HELP = `
SOURCE is a file with the JSON of Moira's GET /api/trigger (one trigger, or {"list": [...]}), of
GET /api/user/settings (contacts and subscriptions, for the channels), or Moira's URL: then the same calls are made,
read-only, with MOIRA_TOKEN as a bearer token if set.

Examples:
  $ alertform import moira triggers.json settings.json --out alerts/
  $ MOIRA_TOKEN=... alertform import moira https://moira.example.com --out alerts/
  $ alertform validate alerts/ && alertform plan alerts/

Exit code 0 when everything came over, 2 when some rules or fields did not (IMPORT-REPORT.md lists each), 1 on error.`;

const GRAFANA_HELP = `
SOURCE is a file in Grafana's alerting export format, YAML or JSON (GET /api/v1/provisioning/alert-rules/export,
and /api/v1/provisioning/contact-points/export?decrypt=true for the channels), or Grafana's URL: then those calls
are made, read-only, with GRAFANA_TOKEN as a bearer token.

Examples:
  $ alertform import grafana rules.yaml contact-points.yaml --out alerts/
  $ GRAFANA_TOKEN=... alertform import grafana https://grafana.example.com --out alerts/
  $ alertform plan alerts/ --impact --graphite-url http://graphite:8080   # how often each would have fired

Exit code 0 when everything came over, 2 when some rules or fields did not (IMPORT-REPORT.md lists each), 1 on error.`;
