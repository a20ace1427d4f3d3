import type { Command } from 'commander';
import { docsUrl } from '../../model/docs-url.js';
import { resolveServerDb, serverConfigOption, serverDbOption } from '../server-db.js';

/** `alertform keys create|list|revoke`: API keys of the bundled server, straight on its database. */
export function registerKeysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage API keys of the bundled server (on its SQLite or PostgreSQL database)')
    .addHelpText(
      'after',
      `
Keys are stored hashed (SHA-256): a key is shown once, when it is made. Safe while the server runs.
The database is the server's: --db, else ALERTFORM_DB, else the db of the settings file --config or
ALERTFORM_CONFIG names (as serve reads it: the systemd unit and the image set it), else ./alertform.db.
Without --metric-prefix an account may query every metric of the server's Graphite: one Graphite is then one
trust domain (see ${docsUrl('security.md')}).

Examples:
  $ alertform keys create --email ops@example.com
  $ alertform keys create --email team1@example.com --metric-prefix team1. --metric-prefix shared.team1.
  $ alertform keys list --db /var/lib/alertform/alertform.db --json
  $ alertform keys revoke 3f2a9c...
  $ alertform keys list --db postgres://alertform@db.internal:5432/alertform
  $ ALERTFORM_CONFIG=/etc/alertform/alertform-server.yaml alertform keys create --email ops@example.com`,
    );

  keys
    .command('create')
    .description('make a new API key and print it once; an email already known gets a second key for its account')
    .requiredOption('--email <email>', "the account's email (destination of its \"Email me\" channel)")
    .addOption(serverDbOption())
    .addOption(serverConfigOption())
    .option(
      '--metric-prefix <prefix>',
      "confine the account's queries to metric paths starting with this prefix, e.g. team1. (repeatable; replaces the account's prefixes)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (options: { email: string; metricPrefix?: string[] }, command: Command) => {
      const { createKey } = await import('../actions/keys.js');
      await createKey({ ...options, db: await resolveServerDb(command) }, command);
    });

  keys
    .command('list')
    .description('list keys: id, email, created, revoked (never the keys themselves)')
    .addOption(serverDbOption())
    .addOption(serverConfigOption())
    .action(async (_options: unknown, command: Command) => {
      const { listKeys } = await import('../actions/keys.js');
      await listKeys({ db: await resolveServerDb(command) }, command);
    });

  keys
    .command('revoke')
    .description('revoke a key by its id (as keys list shows it); requests with it get 401 from then on')
    .argument('<id>', 'key id')
    .addOption(serverDbOption())
    .addOption(serverConfigOption())
    .action(async (id: string, _options: unknown, command: Command) => {
      const { revokeKey } = await import('../actions/keys.js');
      await revokeKey(id, { db: await resolveServerDb(command) });
    });
}
