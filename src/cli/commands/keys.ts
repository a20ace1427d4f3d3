import { Option, type Command } from 'commander';
import { DB_OPTION_HELP, DEFAULT_DB } from '../db-option.js';
import { docsUrl } from '../../model/docs-url.js';

const DB_HELP = `the server's database: ${DB_OPTION_HELP}`;

/** `alertform keys create|list|revoke`: API keys of the bundled server, straight on its database. */
export function registerKeysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage API keys of the bundled server (on its SQLite or PostgreSQL database)')
    .addHelpText(
      'after',
      `
Keys are stored hashed (SHA-256): a key is shown once, when it is made. Safe while the server runs.
Without --metric-prefix an account may query every metric of the server's Graphite: one Graphite is then one
trust domain (see ${docsUrl('security.md')}).

Examples:
  $ alertform keys create --email ops@example.com
  $ alertform keys create --email team1@example.com --metric-prefix team1. --metric-prefix shared.team1.
  $ alertform keys list --db /var/lib/alertform/alertform.db --json
  $ alertform keys revoke 3f2a9c...
  $ alertform keys list --db postgres://alertform@db.internal:5432/alertform`,
    );

  keys
    .command('create')
    .description('make a new API key and print it once; an email already known gets a second key for its account')
    .requiredOption('--email <email>', "the account's email (destination of its \"Email me\" channel)")
    .addOption(dbOption())
    .option(
      '--metric-prefix <prefix>',
      "confine the account's queries to metric paths starting with this prefix, e.g. team1. (repeatable; replaces the account's prefixes)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (options: { email: string; db: string; metricPrefix?: string[] }, command: Command) => {
      const { createKey } = await import('../actions/keys.js');
      await createKey(options, command);
    });

  keys
    .command('list')
    .description('list keys: id, email, created, revoked (never the keys themselves)')
    .addOption(dbOption())
    .action(async (options: { db: string }, command: Command) => {
      const { listKeys } = await import('../actions/keys.js');
      await listKeys(options, command);
    });

  keys
    .command('revoke')
    .description('revoke a key by its id (as keys list shows it); requests with it get 401 from then on')
    .argument('<id>', 'key id')
    .addOption(dbOption())
    .action(async (id: string, options: { db: string }) => {
      const { revokeKey } = await import('../actions/keys.js');
      await revokeKey(id, options);
    });
}

/** --db, also from ALERTFORM_DB as for serve. */
function dbOption(): Option {
  return new Option('--db <path-or-url>', DB_HELP).env('ALERTFORM_DB').default(DEFAULT_DB);
}

