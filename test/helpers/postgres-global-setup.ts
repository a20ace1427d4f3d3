import type { TestProject } from 'vitest/node';
import { createMigratedTemplate, postgresAvailability, startPostgres, type Postgres, type SharedPostgresAddress } from './postgres.js';

/** The run's databases are copies of this one, migrated once (see createMigratedTemplate). */
const MIGRATED_TEMPLATE = 'alertform_migrated';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared PostgreSQL cluster (see sharedPostgres in postgres.ts); null when PostgreSQL is not here. */
    sharedPostgres: SharedPostgresAddress | null;
  }
}

/**
 * Global setup of the projects whose files need PostgreSQL databases: one cluster for the whole run, started by the
 * first such project and handed to every file through `inject('sharedPostgres')`, instead of an initdb and a
 * pg_ctl start and stop per file. Files stay apart by database (each makes its own and drops it); PostgreSQL's
 * LISTEN/NOTIFY channels and advisory locks are per database too. Enough connections for two files of replicas
 * at once. No fsync: each file's DROP DATABASE forces a checkpoint, which with fsync waits on the disk (tens of
 * seconds on a busy machine), and no test crashes this cluster's host, the only loss fsync guards against (the
 * crash and durability tests kill their own clusters, which keep fsync). Its databases start migrated: copies of one
 * template migrated at the start.
 */
const run = globalThis as { alertformSharedPostgres?: Promise<Postgres> };

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (postgresAvailability().skip) {
    project.provide('sharedPostgres', null);
    return undefined;
  }
  const first = !run.alertformSharedPostgres;
  run.alertformSharedPostgres ??= startPostgres({ settings: ['max_connections=500', 'fsync=off'] }).then(async (cluster) => {
    await createMigratedTemplate(cluster.url, MIGRATED_TEMPLATE);
    return cluster;
  });
  const cluster = await run.alertformSharedPostgres;
  project.provide('sharedPostgres', { url: cluster.url, port: cluster.port, migratedTemplate: MIGRATED_TEMPLATE });
  // The projects' teardowns run when the whole run is over: the one that started the cluster stops it.
  if (!first) return undefined;
  return async () => {
    delete run.alertformSharedPostgres;
    await cluster.stop();
  };
}
