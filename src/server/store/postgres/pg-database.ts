import { createHash } from 'node:crypto';
import pg, { type Pool, type PoolClient, type QueryConfig, type QueryResultRow } from 'pg';
import { StoreUnavailable } from '../store.js';
import { parseHostList, probeHost, type HostList } from './host-list.js';

/** Runs one SQL statement: the pool (each call on any free connection) or one transaction's client. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
}

/** One transaction's client; queryArrays answers each row as an array in the select's order (cheaper to build). */
export interface Transaction extends Queryable {
  queryArrays(sql: string, params?: unknown[]): Promise<unknown[][]>;
}

/**
 * BIGINT columns (seq, epoch ms, epoch s) come back as numbers: every value we store is far below 2^53, and the
 * records carry numbers on both stores. Other types keep pg's defaults.
 */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Options of the pool; tests shorten the connection timeout. */
export interface PoolOptions {
  /** Connections at most (per process). Default 10. */
  max?: number;
  /** How long a query waits for a connection before the API answers 503, ms. Default 5,000. */
  connectionTimeoutMs?: number;
  /**
   * How long a statement may wait for its answer before its connection is given up (node-postgres's
   * query_timeout; `?query_timeout=MS` in the URL wins), ms. Default 30,000. Without it, a statement sent into a
   * network partition waits for TCP to give up (15 minutes on Linux), and the evaluator and heartbeat with it.
   */
  queryTimeoutMs?: number;
}

/**
 * A pool of connections to one database. A connection that breaks (the database restarts, the network drops) is
 * thrown away and the next query opens a new one, so the store recovers by itself once the database is back.
 *
 * A URL with several hosts (`postgres://U@H1:P1,H2:P2/DB?target_session_attrs=read-write`, libpq's syntax) is a
 * primary and its standbys: the pool connects to the first host that answers (and accepts writes, with read-write).
 * When the database becomes unreachable or read-only under it (the primary died; a standby is promoted elsewhere),
 * the hosts are probed again in order, and the pool moves to the first that qualifies; until one does, every query
 * fails with StoreUnavailable (the API's 503).
 */
export class PgDatabase implements Queryable {
  private current: Pool;
  private readonly hosts: HostList;
  private hostIndex = 0;
  private relocating: Promise<boolean> | null = null;
  private lastRelocation = Number.NEGATIVE_INFINITY;
  private closed = false;
  /**
   * Statements other than a plain SELECT, and transactions, completed by this process (counted after they return,
   * so after their commit): the read caches drop what they hold when it moves (postgres/account-changes.ts).
   */
  completedWrites = 0;

  constructor(
    url: string,
    private readonly options: PoolOptions = {},
  ) {
    this.hosts = parseHostList(url);
    this.current = this.createPool(this.hosts.urls[0]!);
  }

  /** The pool of the host in use (it changes when the database fails over). */
  get pool(): Pool {
    return this.current;
  }

  /** Whether several hosts (or a writable one) are to be chosen from, rather than one URL used as it is. */
  private get choosing(): boolean {
    return this.hosts.urls.length > 1 || this.hosts.readWrite;
  }

  /** Points the pool at the first host that qualifies; StoreUnavailable when none does (on open). */
  async locate(): Promise<void> {
    if (!this.choosing) return;
    if (!(await this.relocate(true))) {
      throw new StoreUnavailable({ cause: new Error(`none of the ${this.hosts.urls.length} database hosts accepts ${this.hosts.readWrite ? 'writes' : 'connections'}`) });
    }
  }

  private createPool(url: string): Pool {
    const pool = new pg.Pool({
      connectionString: url,
      max: this.options.max ?? 10,
      connectionTimeoutMillis: this.connectTimeout(),
      query_timeout: this.options.queryTimeoutMs ?? 30_000,
      idleTimeoutMillis: 30_000,
      // A database host that vanished without closing the socket is noticed by TCP keepalive probes from 10 s of
      // silence on, instead of the OS default of two hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'alertform',
      types: TYPES,
    });
    // An idle connection cut by the server (restart, failover) is reported here; without a listener the process
    // would die. The pool has already dropped it; the next query connects again.
    pool.on('error', () => undefined);
    return pool;
  }

  private connectTimeout(): number {
    return this.options.connectionTimeoutMs ?? 5_000;
  }

  /**
   * After a failure that says the database is away: probe the hosts in order (one probe round at a time, at most
   * every 250 ms) and move the pool to the first that qualifies. The old pool is ended once its connections
   * are returned. Answers whether a host qualified. With one plain host there is nothing to choose: the pool
   * reconnects by itself.
   */
  private relocate(force = false): Promise<boolean> {
    if (!this.choosing || this.closed) return Promise.resolve(false);
    if (this.relocating) return this.relocating;
    if (!force && performance.now() - this.lastRelocation < 250) return Promise.resolve(false);
    this.relocating = (async () => {
      for (let index = 0; index < this.hosts.urls.length; index += 1) {
        if (!(await probeHost(this.hosts.urls[index]!, this.hosts.readWrite, this.connectTimeout()))) continue;
        if (index !== this.hostIndex && !this.closed) {
          const old = this.current;
          this.current = this.createPool(this.hosts.urls[index]!);
          this.hostIndex = index;
          void old.end().catch(() => undefined);
        }
        return true;
      }
      return false;
    })().finally(() => {
      this.lastRelocation = performance.now();
      this.relocating = null;
    });
    return this.relocating;
  }

  /** The error to throw for `error`; an unreachable or read-only database also starts a search for the primary. */
  private failed(error: unknown): unknown {
    const translated = translateError(error);
    if (translated instanceof StoreUnavailable) void this.relocate();
    return translated;
  }

  async query<R extends QueryResultRow = QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      const rows = (await this.pool.query<R>(prepared(sql, params))).rows;
      if (!PLAIN_SELECT.test(sql)) this.completedWrites += 1;
      return rows;
    } catch (error) {
      this.completedWrites += 1;
      throw this.failed(error);
    }
  }

  /**
   * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when it throws. A
   * connection whose rollback fails is destroyed rather than returned to the pool in an unknown state.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failed(error);
    }
    // A checked-out connection reports its death as an 'error' event even between two statements; unheard, that
    // event would kill the process. The failing statement (or the COMMIT) rejects on its own.
    let lost: unknown;
    const onError = (error: unknown) => {
      lost = error;
    };
    client.on('error', onError);
    const tx: Transaction = {
      query: async <R extends QueryResultRow>(sql: string, params: unknown[] = []) => (await client.query<R>(prepared(sql, params))).rows,
      queryArrays: async (sql: string, params: unknown[] = []) => (await client.query<unknown[]>({ ...prepared(sql, params), rowMode: 'array' })).rows,
    };
    let broken: unknown;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      this.completedWrites += 1;
      return result;
    } catch (error) {
      // A connection that is lost or timed out is not rolled back (the server does that when it goes): it is
      // destroyed, and a ROLLBACK sent into a stalled link would only wait for its own timeout.
      if (isUnavailable(error)) broken = error;
      else {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
      }
      this.completedWrites += 1;
      throw this.failed(error);
    } finally {
      client.off('error', onError);
      const destroy = broken ?? lost;
      client.release(destroy instanceof Error ? destroy : destroy === undefined ? undefined : true);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.relocating;
    if (!this.current.ended) await this.current.end();
  }
}

const statementNames = new Map<string, string>();

/** A statement that reads only (anything else, WITH ... INSERT included, counts as a write). */
const PLAIN_SELECT = /^\s*SELECT\b/i;

/**
 * A named (prepared) statement: each connection parses and plans a SQL text once and then only binds and
 * executes it, which roughly halves the cost of the small reads that make up most requests. The name is derived
 * from the text, so the same text always has the same name; the set of texts is small (a few variants per search).
 */
function prepared(sql: string, values: unknown[]): QueryConfig {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `af_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    if (statementNames.size < 1_000) statementNames.set(sql, name);
  }
  return { name, text: sql, values };
}

/**
 * SQLSTATEs that mean "the database is not there right now", not "your statement is wrong". 25006 (a write in a
 * read-only transaction) is a standby or a demoted primary: not where writes go any more.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '25006']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Whether an error from pg means the database cannot be reached (as opposed to a bad statement or a constraint). */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))) {
    return true;
  }
  // pg reports a dropped socket and the pool's connect timeout with messages only.
  return /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable|Query read timeout/i.test(
    error.message,
  );
}

/** StoreUnavailable for an unreachable database; any other error as it is. */
export function translateError(error: unknown): unknown {
  return isUnavailable(error) ? new StoreUnavailable({ cause: error }) : error;
}
