import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { hasFile, systemPart } from './system.js';

const run = promisify(execFile);
const BIN = process.env.ALERTFORM_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A real PostgreSQL for tests: Debian's postgresql-15 binaries, a cluster of its own in a temp dir (initdb, trust
 * auth for the `postgres` role), listening on a free 127.0.0.1 port and a Unix socket in that same dir. As root
 * the binaries run as the `postgres` user (PostgreSQL refuses to run as root).
 */
export interface Postgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** A fresh, empty database; its URL. */
  createDatabase(): Promise<string>;
  /** `pg_ctl stop -m fast`: every connection is cut, new ones are refused until start(). */
  stopServer(): Promise<void>;
  /** Starts the stopped cluster again on the same port and data. */
  startServer(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  stop(): Promise<void>;
  /**
   * SIGKILL of the postmaster and every process it started, as a host dying does: no checkpoint, no goodbye to
   * clients or standbys. startServer() afterwards runs crash recovery.
   */
  kill(): Promise<void>;
  /** `pg_ctl promote` of a standby: it leaves recovery and accepts writes. */
  promote(): Promise<void>;
}

/** How to make a cluster. */
export interface PostgresOptions {
  /** More `-c name=value` settings of the server. */
  settings?: string[];
  /**
   * A streaming standby of this primary instead of a fresh cluster: `pg_basebackup -R` (a copy of its data and
   * standby.signal with primary_conninfo), started read-only, replaying the primary's WAL as it comes.
   */
  standbyOf?: Postgres;
}

/** Whether the PostgreSQL server binaries are here; in CI a missing one fails instead of skipping. */
export function postgresAvailability(): { skip: boolean; reason: string } {
  return systemPart('PostgreSQL 15 (postgresql)', hasFile(join(BIN, 'initdb')) && hasFile(join(BIN, 'pg_ctl')));
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
async function runPg(binary: string, args: string[]): Promise<string> {
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(BIN, binary), ...args]] : [join(BIN, binary), args];
  try {
    const { stdout } = await run(command, argv, { cwd: tmpdir() });
    return stdout;
  } catch (error) {
    const failure = error as Error & { stderr?: string; stdout?: string };
    throw new Error(`${binary} ${args.join(' ')} failed: ${failure.stderr || failure.stdout || failure.message}`);
  }
}

export async function startPostgres(config: PostgresOptions = {}): Promise<Postgres> {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    await chown(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const port = await freePort();
  // Settings for a throwaway cluster: small memory, no background noise. fsync stays on, as in production, so that
  // the durability tests mean what they say. Dynamic shared memory as files in the data directory, which goes with
  // the cluster: POSIX segments in /dev/shm outlive a cluster the crash tests SIGKILL (two a run, kept until reboot).
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c shared_buffers=32MB',
    '-c max_connections=200',
    '-c log_min_messages=warning',
    '-c dynamic_shared_memory_type=mmap',
    ...(config.settings ?? []).map((setting) => `-c ${setting}`),
  ].join(' ');
  const start = () => runPg('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']).then(() => undefined);
  const stopServer = () => runPg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).then(() => undefined);

  let running = false;
  const onExit = () => {
    // The worker is going away without stop(): do not leave a postmaster behind.
    if (!running) return;
    try {
      const argv = ['-D', data, '-m', 'immediate', 'stop'];
      if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, 'pg_ctl'), ...argv], { stdio: 'ignore' });
      else execFileSync(join(BIN, 'pg_ctl'), argv, { stdio: 'ignore' });
    } catch {
      // Nothing more can be done on exit.
    }
  };
  process.once('exit', onExit);

  try {
    if (config.standbyOf) {
      await runPg('pg_basebackup', ['-D', data, '-R', '-X', 'stream', '-c', 'fast', '-h', '127.0.0.1', '-p', String(config.standbyOf.port), '-U', 'postgres']);
    } else {
      await runPg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
    }
    await start();
    running = true;
  } catch (error) {
    const tail = await readFile(log, 'utf8').catch(() => '');
    process.off('exit', onExit);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${tail.slice(-2000)}`);
  }

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    createDatabase: () => createDatabaseOn(url, port),
    async stopServer() {
      await stopServer();
      running = false;
    },
    async startServer() {
      await start();
      running = true;
    },
    async kill() {
      const postmaster = Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      // Its children first, listed while they are still its children; then the postmaster itself.
      const children = (await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)]).catch(() => ({ stdout: '' }))).stdout
        .split('\n').map((line) => Number(line.trim())).filter((pid) => pid > 0);
      for (const pid of [postmaster, ...children]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      running = false;
    },
    async promote() {
      await runPg('pg_ctl', ['-D', data, '-w', '-t', '60', 'promote']);
    },
    async stop() {
      if (running) await runPg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      running = false;
      process.off('exit', onExit);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One connection per process to each cluster's maintenance database, for creating and dropping the files'
 * databases: a worker runs file after file, and a PostgreSQL backend costs 25-40 ms of CPU to start and end (more
 * on a machine whose page faults are dear), so a pair of connections per file was about a tenth of the cluster's
 * CPU in a run. Idle for half a minute it closes, and it never keeps the process alive.
 */
const adminPools = new Map<string, pg.Pool>();
function adminPool(url: string): pg.Pool {
  let pool = adminPools.get(url);
  if (!pool) {
    pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
    // A cluster stopped under an idle connection (its file's own, at its end) reports here; the next query reconnects.
    pool.on('error', () => undefined);
    adminPools.set(url, pool);
  }
  return pool;
}

/**
 * A fresh database in the cluster at `url`, a copy of `template` (default: template1, empty); its URL. `fileCopy`
 * copies the template's files instead of writing its every block to the WAL (half the time, for a small template)
 * at the price of a checkpoint, cheap only where fsync is off.
 */
async function createDatabaseOn(url: string, port: number, options: { template?: string; fileCopy?: boolean } = {}): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await adminPool(url).query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}${options.fileCopy ? ' STRATEGY FILE_COPY' : ''}`);
  return `postgres://postgres@127.0.0.1:${port}/${name}`;
}

/** Where the run's shared cluster listens (test/helpers/postgres-global-setup.ts); null when there is none. */
export interface SharedPostgresAddress {
  url: string;
  port: number;
  /** A database migrated to the sources' schema, which createDatabase copies (the migration tests start their own cluster). */
  migratedTemplate?: string;
}

/**
 * Makes `name` in the cluster at `url`, migrated by the sources' migrations, as a template for the run's databases:
 * each copy spares its first store the migrations (about 0.2 s of the cluster's CPU each, over a hundred databases a
 * run). A store opened on a copy finds the schema at its version and migrates nothing, as on a database it made.
 */
export async function createMigratedTemplate(url: string, name: string): Promise<void> {
  const { migrateDatabase } = await import('../../src/server/store/postgres/migrations.js');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  // No connection may stay open on a template while it is copied.
  const pool = new pg.Pool({ connectionString: target.href, max: 1 });
  try {
    await migrateDatabase(pool);
  } finally {
    await pool.end();
  }
}

/**
 * A cluster for a test file that only needs databases of its own: `createDatabase()` and the port, never a stop, a
 * kill or a standby (those start a cluster of their own with startPostgres). The run's projects share one started
 * cluster (postgres-global-setup.ts) instead of each file running initdb and pg_ctl; without it (a file run
 * outside this repository's vitest config) the file starts its own. `dispose()` drops the databases it made, or
 * stops the file's own cluster.
 */
export interface SharedPostgres {
  url: string;
  port: number;
  /** A fresh database; in the run's shared cluster a copy of its migrated template (see createMigratedTemplate). */
  createDatabase(): Promise<string>;
  dispose(): Promise<void>;
}

export async function sharedPostgres(address: SharedPostgresAddress | null | undefined): Promise<SharedPostgres> {
  if (!address) {
    const own = await startPostgres();
    return { url: own.url, port: own.port, createDatabase: own.createDatabase, dispose: own.stop };
  }
  const { url, port, migratedTemplate } = address;
  const made: string[] = [];
  return {
    url,
    port,
    async createDatabase() {
      // The shared cluster runs without fsync (postgres-global-setup.ts).
      const database = await createDatabaseOn(url, port, { ...(migratedTemplate ? { template: migratedTemplate } : {}), fileCopy: true });
      made.push(new URL(database).pathname.slice(1));
      return database;
    },
    async dispose() {
      // FORCE: a server the test left running (or killed mid-transaction) may still hold a connection.
      for (const name of made.splice(0)) await adminPool(url).query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

