import type { Command } from 'commander';
import { createApiKey } from '../../server/ids.js';
import { describeDatabase, openStore } from '../../server/store/open-store.js';
import type { ApiKeyRecord, Store } from '../../server/store/store.js';
import { METRIC_PREFIX, checkMetricPrefixes } from '../../server/validation/metric-prefixes.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';
import type { GlobalOptions } from '../program.js';

/** `keys create|list|revoke`: loaded lazily, so that the other commands never load the store and its drivers. */
export async function createKey(options: { email: string; db: string; metricPrefix?: string[] }, command: Command): Promise<void> {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(options.email)) throw new CliError(`"${options.email}" is not an email address`);
  const prefixes = options.metricPrefix ?? [];
  const bad = prefixes.find((prefix) => !METRIC_PREFIX.test(prefix));
  if (bad !== undefined) throw new CliError(`--metric-prefix "${bad}" must be plain dot-separated words, e.g. team1. (no wildcards)`);
  await withStore(options.db, async (store) => {
    const account = (await store.accounts.findAccountByEmail(options.email)) ?? (await store.accounts.createAccount(options.email));
    if (prefixes.length > 0) {
      await store.accounts.setMetricPrefixes(account.id, prefixes);
      await warnAboutUnconfinedAlerts(store, account.id, prefixes);
    }
    const key = createApiKey();
    const record = await store.accounts.addApiKey(account.id, key);
    if (globals(command).json) {
      await writeJson({ ...presentKey(record), key });
    } else {
      process.stdout.write(`${key}\n`);
      process.stderr.write(`key ${record.id} for ${options.email} in ${describeDatabase(options.db)}: store it now, it is not shown again\n`);
    }
  });
}

export async function listKeys(options: { db: string }, command: Command): Promise<void> {
  await withStore(options.db, async (store) => {
    const records = (await store.accounts.listApiKeys()).map(presentKey);
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
}

export async function revokeKey(id: string, options: { db: string }): Promise<void> {
  await withStore(options.db, async (store) => {
    if (!(await store.accounts.revokeApiKey(id))) throw new CliError(`no key with id "${id}"`);
    process.stdout.write(`key ${id} revoked\n`);
  });
}

/**
 * Prefixes judge the queries written from now on; alerts the account already has keep running. Say which of them
 * read outside, so the operator can ask for them to be fixed or delete them.
 */
async function warnAboutUnconfinedAlerts(store: Pick<Store, 'accounts' | 'alerts' | 'close'>, accountId: string, prefixes: string[]): Promise<void> {
  for (let page = 1; ; page += 1) {
    const found = await store.alerts.searchAlerts(accountId, { names: [], ids: [], search: null, page, max: 100 });
    for (const alert of found.items) {
      const queries = [alert.metric, ...Object.values(alert.additionalCriteria).map((criterion) => criterion.metric)];
      const problem = queries.map((query) => checkMetricPrefixes(query, prefixes)).find((p) => p !== null);
      if (problem) process.stderr.write(`warning: existing alert ${alert.id} ${problem}\n`);
    }
    if (!found.nextPage) return;
  }
}

function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

function presentKey(record: ApiKeyRecord) {
  return { id: record.id, email: record.email, created_at: record.createdAt, revoked_at: record.revokedAt };
}

async function withStore(db: string, use: (store: Pick<Store, 'accounts' | 'alerts' | 'close'>) => Promise<void>): Promise<void> {
  let store: Pick<Store, 'accounts' | 'alerts' | 'close'>;
  try {
    store = await openStore(db);
  } catch (error) {
    throw new CliError(`cannot open database ${describeDatabase(db)}: ${(error as Error).message}`);
  }
  try {
    await use(store);
  } finally {
    await store.close();
  }
}
