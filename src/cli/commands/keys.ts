import { Option, type Command } from 'commander';
import { createApiKey } from '../../server/ids.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import type { ApiKeyRecord } from '../../server/store/store.js';
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

Examples:
  $ alertform keys create --email ops@example.com
  $ alertform keys list --db /var/lib/alertform/alertform.db --json
  $ alertform keys revoke 3f2a9c...`,
    );

  keys
    .command('create')
    .description('make a new API key and print it once; an email already known gets a second key for its account')
    .requiredOption('--email <email>', "the account's email (destination of its \"Email me\" channel)")
    .addOption(dbOption())
    .action(async (options: { email: string; db: string }, command: Command) => {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(options.email)) throw new CliError(`"${options.email}" is not an email address`);
      await withStore(options.db, async (store) => {
        const account = (await store.findAccountByEmail(options.email)) ?? (await store.createAccount(options.email));
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
