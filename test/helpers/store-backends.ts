import { afterAll, describe, it } from 'vitest';
import { openStore } from '../../src/server/store/open-store.js';
import type { Store } from '../../src/server/store/store.js';
import { postgresAvailability, type SharedPostgres } from './postgres.js';
import { filePostgres } from './shared-postgres.js';

// The alert the store suites write; kept apart so that unit tests can use it without the PostgreSQL helper.
export { alertWrite } from './alert-write.js';

/**
 * One storage backend for the parametrised suites (describe.each over storeBackends()): every store test and the
 * conformance suite run once per backend, from one source.
 */
export interface StoreBackend {
  name: 'sqlite' | 'postgres';
  /** True when the backend's system part is missing here (never in CI, where that throws instead). */
  skip: boolean;
  reason: string;
  /** A --db value for a fresh database: `:memory:`, or a new PostgreSQL database's URL (already migrated in the run's shared cluster). */
  createDb(): Promise<string>;
  /** A store on a fresh, empty database. */
  openStore(): Promise<Store>;
  /** The PostgreSQL cluster behind it (the run's shared one, see filePostgres); undefined for SQLite. */
  postgres(): Promise<SharedPostgres> | undefined;
  /** Drops the databases createDb made (or stops the file's own cluster); call it in afterAll. */
  dispose(): Promise<void>;
}

/** SQLite in memory, and PostgreSQL databases in the run's shared cluster, taken on first use. */
export function storeBackends(): StoreBackend[] {
  const sqlite: StoreBackend = {
    name: 'sqlite',
    skip: false,
    reason: '',
    createDb: async () => ':memory:',
    openStore: () => openStore(':memory:'),
    postgres: () => undefined,
    dispose: async () => undefined,
  };
  const availability = postgresAvailability();
  let cluster: Promise<SharedPostgres> | undefined;
  const postgres = () => (cluster ??= filePostgres());
  const createDb = async () => (await postgres()).createDatabase();
  const pgBackend: StoreBackend = {
    name: 'postgres',
    ...availability,
    createDb,
    openStore: async () => openStore(await createDb()),
    postgres,
    async dispose() {
      const started = cluster;
      cluster = undefined;
      if (started) await (await started).dispose();
    },
  };
  return [sqlite, pgBackend];
}

/**
 * `describe.each` over the backends: the body runs once per store, a missing one is one visible skipped test (never
 * in CI), and each backend's databases are dropped after its block. With `concurrent`, the stores' blocks (and the
 * tests in them) run at the same time: for tests that mostly wait on wall time (a throttle window's minute), whose
 * state is all their own (servers and receivers made in the test, closed with onTestFinished).
 */
export function describeEachStore(title: string, body: (backend: StoreBackend) => void, options: { concurrent?: boolean } = {}): void {
  (options.concurrent ? describe.concurrent : describe).each(storeBackends())(title, (backend) => {
    if (backend.skip) {
      it.skip(`needs ${backend.reason}`, () => undefined);
      return;
    }
    afterAll(() => backend.dispose());
    body(backend);
  });
}
