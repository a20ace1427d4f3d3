import pg from 'pg';

/**
 * A connection string's hosts, as libpq reads them: `postgres://USER@H1:P1,H2:P2/DB?target_session_attrs=read-write`
 * names two servers, tried in order. node-postgres (8.23) connects to one host only, so the store picks the host
 * itself (PgDatabase.relocate) with these: one single-host URL per host, and whether it must accept writes.
 */
export interface HostList {
  /** One connection string per host, in the order given, without target_session_attrs. */
  urls: string[];
  /** target_session_attrs=read-write (or primary): only a server that is not in recovery will do. */
  readWrite: boolean;
}

const SESSION_ATTRS: Record<string, boolean> = { any: false, 'read-write': true, primary: true };

/** Splits a postgres:// URL into its hosts. A single-host URL without target_session_attrs comes back as it is. */
export function parseHostList(url: string): HostList {
  const match = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i.exec(url);
  if (!match) return { urls: [url], readWrite: false };
  const [, scheme, userinfo = '', hostPart, rest] = match as unknown as [string, string, string | undefined, string, string];
  const [path, query = ''] = splitOnce(rest, '?');
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(attrs in SESSION_ATTRS)) {
    throw new Error(`target_session_attrs=${attrs} is not supported (use read-write, primary or any)`);
  }
  params.delete('target_session_attrs');
  const remaining = params.toString();
  const tail = remaining === '' ? path : `${path}?${remaining}`;
  const hosts = hostPart.split(',').filter((host) => host !== '');
  return { urls: (hosts.length > 0 ? hosts : ['']).map((host) => `${scheme}${userinfo}${host}${tail}`), readWrite: SESSION_ATTRS[attrs]! };
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * Whether the server at `url` answers within `timeoutMs` and, when `readWrite`, accepts writes (libpq's check for
 * target_session_attrs=read-write: `SHOW transaction_read_only` is off; a standby, or a primary being demoted, says on).
 */
export async function probeHost(url: string, readWrite: boolean, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, application_name: 'alertform' });
  // A connection cut while probing is reported as an event too; the awaited call rejects on its own.
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (!readWrite) return true;
    const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
    return rows[0]?.transaction_read_only === 'off';
  } catch {
    return false;
  } finally {
    void client.end().catch(() => undefined);
  }
}
