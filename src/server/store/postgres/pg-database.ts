import { createHash } from 'node:crypto';
import pg, { type Pool, type PoolClient, type QueryConfig, type QueryResultRow } from 'pg';
import { StoreUnavailable } from '../store.js';

/** Runs one SQL statement: the pool (each call on any free connection) or one transaction's client. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
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
}

/**
 * A pool of connections to one database. A connection that breaks (the database restarts, the network drops) is
 * thrown away and the next query opens a new one, so the store recovers by itself once the database is back.
 */
export class PgDatabase implements Queryable {
  readonly pool: Pool;

  constructor(url: string, options: PoolOptions = {}) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
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
    this.pool.on('error', () => undefined);
  }

  async query<R extends QueryResultRow = QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(prepared(sql, params))).rows;
    } catch (error) {
      throw translateError(error);
    }
  }

  /**
   * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when it throws. A
   * connection whose rollback fails is destroyed rather than returned to the pool in an unknown state.
   */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translateError(error);
    }
    // A checked-out connection reports its death as an 'error' event even between two statements; unheard, that
    // event would kill the process. The failing statement (or the COMMIT) rejects on its own.
    let lost: unknown;
    const onError = (error: unknown) => {
      lost = error;
    };
    client.on('error', onError);
    const tx: Queryable = {
      query: async <R extends QueryResultRow>(sql: string, params: unknown[] = []) => (await client.query<R>(prepared(sql, params))).rows,
    };
    let broken: unknown;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError;
      });
      throw translateError(error);
    } finally {
      client.off('error', onError);
      const destroy = broken ?? lost;
      client.release(destroy instanceof Error ? destroy : destroy === undefined ? undefined : true);
    }
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

const statementNames = new Map<string, string>();

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

/** SQLSTATEs that mean "the database is not there right now", not "your statement is wrong". */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Whether an error from pg means the database cannot be reached (as opposed to a bad statement or a constraint). */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))) {
    return true;
  }
  // pg reports a dropped socket and the pool's connect timeout with messages only.
  return /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable/i.test(
    error.message,
  );
}

/** StoreUnavailable for an unreachable database; any other error as it is. */
export function translateError(error: unknown): unknown {
  return isUnavailable(error) ? new StoreUnavailable({ cause: error }) : error;
}
