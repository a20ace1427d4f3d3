import type { EvaluationLease } from '../evaluation-store.js';
import type { Queryable } from './pg-database.js';

/**
 * One replica's turn at the lease table, inside one transaction: heartbeat, count the live replicas, then keep its
 * fair share (ceil(partitions / live)) of the partitions: renew what it holds, release what it holds beyond the
 * share, take expired or released ones up to it. Every lease row is locked (FOR UPDATE) for the turn, so two
 * replicas never take the same partition; taking one bumps its token, which fences the previous holder's writes.
 * Times are the database's clock (now()), so replicas' clocks need not agree.
 */
export async function acquireLeases(
  tx: Queryable,
  replica: string,
  ttlMs: number,
  { shed = true }: { shed?: boolean } = {},
): Promise<EvaluationLease> {
  await heartbeat(tx, replica, ttlMs);
  // Replicas gone for a day are forgotten; those merely expired just stop counting.
  await tx.query(`DELETE FROM evaluation_replicas WHERE seen_until < now() - interval '1 day'`);
  const [{ live }] = (await tx.query<{ live: number }>(
    'SELECT count(*)::int AS live FROM evaluation_replicas WHERE seen_until > now()',
  )) as [{ live: number }];
  const rows = await tx.query<{ partition: number; owner: string | null; live: boolean }>(
    'SELECT partition, owner, expires_at > now() AS live FROM evaluation_leases ORDER BY partition FOR UPDATE',
  );
  const share = Math.ceil(rows.length / Math.max(1, live));
  const mine = rows.filter((row) => row.owner === replica).map((row) => row.partition);
  // A heartbeat (shed false) keeps a surplus for now: the round in flight listed it. The next round sheds it.
  const keep = shed ? mine.slice(0, share) : mine;
  const release = shed ? mine.slice(share) : [];
  const free = rows.filter((row) => row.owner !== replica && (row.owner === null || !row.live)).map((row) => row.partition);
  const take = free.slice(0, Math.max(0, share - keep.length));
  if (release.length > 0) {
    await tx.query(`UPDATE evaluation_leases SET owner = NULL, expires_at = now() WHERE partition = ANY($1)`, [release]);
  }
  const held = await tx.query<{ partition: number; token: number }>(
    `UPDATE evaluation_leases
     SET token = token + CASE WHEN owner IS DISTINCT FROM $1 THEN 1 ELSE 0 END,
         owner = $1, expires_at = now() + $2 * interval '1 millisecond'
     WHERE partition = ANY($3) RETURNING partition, token`,
    [replica, ttlMs, [...keep, ...take]],
  );
  return { replica, tokens: new Map(held.map((row) => [row.partition, row.token])), partitionCount: rows.length };
}

/**
 * The cheap heartbeat: renews this replica's row and the partitions it still holds, with plain UPDATEs of its own
 * rows (their lock does not conflict with the FOR KEY SHARE of a save in flight, so no save makes it wait). Answers
 * the lease held, or null when partitions lie free and this replica is below its share: then the caller takes
 * them with acquireLeases (shed: false), which does lock the table.
 */
export async function renewLeases(tx: Queryable, replica: string, ttlMs: number): Promise<EvaluationLease | null> {
  await heartbeat(tx, replica, ttlMs);
  const held = await tx.query<{ partition: number; token: number }>(
    `UPDATE evaluation_leases SET expires_at = now() + $2 * interval '1 millisecond' WHERE owner = $1 RETURNING partition, token`,
    [replica, ttlMs],
  );
  const [counts] = (await tx.query<{ partitions: number; free: number; live: number }>(
    `SELECT count(*)::int AS partitions,
            (count(*) FILTER (WHERE owner IS NULL OR expires_at <= now()))::int AS free,
            (SELECT count(*)::int FROM evaluation_replicas WHERE seen_until > now()) AS live
     FROM evaluation_leases`,
  )) as [{ partitions: number; free: number; live: number }];
  const share = Math.ceil(counts.partitions / Math.max(1, counts.live));
  if (counts.free > 0 && held.length < share) return null;
  return { replica, tokens: new Map(held.map((row) => [row.partition, row.token])), partitionCount: counts.partitions };
}

/** This replica is alive until `ttlMs` from now: it counts among the live replicas that share the partitions. */
async function heartbeat(tx: Queryable, replica: string, ttlMs: number): Promise<void> {
  await tx.query(
    `INSERT INTO evaluation_replicas (replica, seen_until) VALUES ($1, now() + $2 * interval '1 millisecond')
     ON CONFLICT (replica) DO UPDATE SET seen_until = EXCLUDED.seen_until`,
    [replica, ttlMs],
  );
}

/** Frees a replica's partitions now (expired, no owner) and drops its heartbeat, so it no longer counts as live. */
export async function releaseLeases(tx: Queryable, replica: string): Promise<void> {
  await tx.query('UPDATE evaluation_leases SET owner = NULL, expires_at = now() WHERE owner = $1', [replica]);
  await tx.query('DELETE FROM evaluation_replicas WHERE replica = $1', [replica]);
}

/**
 * The partitions of `lease` that are still its holder's (same owner, same token), locked until the end of the
 * transaction so that nobody takes them before the caller's writes commit. FOR KEY SHARE: it blocks acquireLeases
 * (FOR UPDATE, the only way a partition changes hands) but not the holder's own renewal (a plain UPDATE of non-key
 * columns), so a long save never lets its own lease lapse. Locked in partition order, as acquireLeases locks them,
 * so a save and another replica's acquire never deadlock.
 */
export async function fencePartitions(tx: Queryable, lease: EvaluationLease): Promise<Set<number>> {
  const held = [...(lease.tokens ?? new Map<number, number>())];
  if (held.length === 0) return new Set();
  const rows = await tx.query<{ partition: number }>(
    `SELECT l.partition FROM evaluation_leases l
     JOIN unnest($2::int[], $3::bigint[]) AS h(partition, token) ON h.partition = l.partition AND h.token = l.token
     WHERE l.owner = $1 ORDER BY l.partition FOR KEY SHARE OF l`,
    [lease.replica, held.map(([partition]) => partition), held.map(([, token]) => token)],
  );
  return new Set(rows.map((row) => row.partition));
}

/** SQL for the partition of alert alias `a`, as alertPartition computes it. */
export function partitionSql(partitionCount: string): string {
  return `(CASE WHEN a.id ~* '^[0-9a-f]{8}' THEN ('x' || substr(a.id, 1, 8))::bit(32)::bigint % ${partitionCount} ELSE 0 END)`;
}
