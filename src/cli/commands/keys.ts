import { Option, type Command } from 'commander';
import { createApiKey } from '../../server/ids.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import type { ApiKeyRecord } from '../../server/store/store.js';
import { METRIC_PREFIX, checkMetricPrefixes } from '../../server/validation/metric-prefixes.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';
import type { GlobalOptions } from '../program.js';

const DB_HELP = 'SQLite database of the server';
const DEFAULT_DB = './alertform.db';

/** `alertform keys create|list|revoke`: API keys of the bundled server, straight on its database. */
export function registerKeysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage API keys of the bundled server (on its SQLite database)')
    .addHelpText(
      'after',
      `
Keys are stored hashed (SHA-256): a key is shown once, when it is made. Safe while the server runs.
Without --metric-prefix an account may query every metric of the server's Graphite: one Graphite is then one
trust domain (see docs/security.md).

Examples:
  $ alertform keys create --email ops@example.com
  $ alertform keys create --email team1@example.com --metric-prefix team1. --metric-prefix shared.team1.
  $ alertform keys list --db /var/lib/alertform/alertform.db --json
  $ alertform keys revoke 3f2a9c...`,
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
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(options.email)) throw new CliError(`"${options.email}" is not an email address`);
      const prefixes = options.metricPrefix ?? [];
      const bad = prefixes.find((prefix) => !METRIC_PREFIX.test(prefix));
      if (bad !== undefined) throw new CliError(`--metric-prefix "${bad}" must be plain dot-separated words, e.g. team1. (no wildcards)`);
      await withStore(options.db, async (store) => {
        const account = (await store.findAccountByEmail(options.email)) ?? (await store.createAccount(options.email));
        if (prefixes.length > 0) {
          await store.setMetricPrefixes(account.id, prefixes);
          await warnAboutUnconfinedAlerts(store, account.id, prefixes);
        }
        const key = createApiKey();
        const record = await store.addApiKey(account.id, key);
        if (globals(command).json) {
          await writeJson({ ...presentKey(record), key });
        } else {
          process.stdout.write(`${key}\n`);
          process.stderr.write(`key ${record.id} for ${options.email}: store it now, it is not shown again\n`);
        }
      });
    });

  keys
    .command('list')
    .description('list keys: id, email, created, revoked (never the keys themselves)')
    .addOption(dbOption())
    .action(async (options: { db: string }, command: Command) => {
      await withStore(options.db, async (store) => {
        const records = (await store.listApiKeys()).map(presentKey);
        if (globals(command).json) {
          await writeJson({ keys: records });
          return;
        }
        if (records.length === 0) {
          process.stdout.write('no keys\n');
          return;
        }
        for (const record of records) {
          process.stdout.write(
            `${record.id}  ${record.email ?? '(no email)'}  created ${record.created_at}` +
              `${record.revoked_at ? `  revoked ${record.revoked_at}` : ''}\n`,
          );
        }
      });
    });

  keys
    .command('revoke')
    .description('revoke a key by its id (as keys list shows it); requests with it get 401 from then on')
    .argument('<id>', 'key id')
    .addOption(dbOption())
    .action(async (id: string, options: { db: string }) => {
      await withStore(options.db, async (store) => {
        if (!(await store.revokeApiKey(id))) throw new CliError(`no key with id "${id}"`);
        process.stdout.write(`key ${id} revoked\n`);
      });
    });
}

/**
 * Prefixes judge the queries written from now on; alerts the account already has keep running. Say which of them
 * read outside, so the operator can ask for them to be fixed or delete them.
 */
async function warnAboutUnconfinedAlerts(store: SqliteStore, accountId: string, prefixes: string[]): Promise<void> {
  for (let page = 1; ; page += 1) {
    const found = await store.searchAlerts(accountId, { names: [], ids: [], search: null, page, max: 100 });
    for (const alert of found.items) {
      const queries = [alert.metric, ...Object.values(alert.additionalCriteria).map((criterion) => criterion.metric)];
      const problem = queries.map((query) => checkMetricPrefixes(query, prefixes)).find((p) => p !== null);
      if (problem) process.stderr.write(`warning: existing alert ${alert.id} ${problem}\n`);
    }
    if (!found.nextPage) return;
  }
}

/** --db, also from ALERTFORM_DB as for serve. */
function dbOption(): Option {
  return new Option('--db <path>', DB_HELP).env('ALERTFORM_DB').default(DEFAULT_DB);
}

function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

function presentKey(record: ApiKeyRecord) {
  return { id: record.id, email: record.email, created_at: record.createdAt, revoked_at: record.revokedAt };
}

async function withStore(path: string, use: (store: SqliteStore) => Promise<void>): Promise<void> {
  let store: SqliteStore;
  try {
    store = SqliteStore.open(path);
  } catch (error) {
    throw new CliError(`cannot open database ${path}: ${(error as Error).message}`);
  }
  try {
    await use(store);
  } finally {
    await store.close();
  }
}
