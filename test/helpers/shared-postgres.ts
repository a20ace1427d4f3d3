import { inject } from 'vitest';
import { sharedPostgres, type SharedPostgres } from './postgres.js';

/** The run's shared PostgreSQL cluster for this file (postgres-global-setup.ts), or a cluster of the file's own. */
export function filePostgres(): Promise<SharedPostgres> {
  return sharedPostgres(inject('sharedPostgres'));
}
