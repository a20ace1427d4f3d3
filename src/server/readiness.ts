import type { ServiceReadiness } from './start-server.js';
import type { Store } from './store/store.js';

/** The background services' checks (the evaluator's "running"), asked at each /readyz. */
export type ReadinessSource = () => ServiceReadiness[];

/** The body of /readyz: 200 when every check is ready, 503 otherwise. */
export interface ReadinessReport {
  status: 'ready' | 'not ready';
  checks: ServiceReadiness[];
}

/**
 * Readiness: the database answers, its schema is migrated to this code's version, and every background service
 * (the evaluator, when there is one) is running. Details name what failed, never a credential.
 */
export async function checkReadiness(store: Pick<Store, 'checkReadiness'>, services?: ReadinessSource): Promise<ReadinessReport> {
  const checks: ServiceReadiness[] = [];
  if (store.checkReadiness) {
    try {
      const { schemaVersion, expectedSchemaVersion } = await store.checkReadiness();
      checks.push({ name: 'database', ready: true });
      checks.push(
        schemaVersion === expectedSchemaVersion
          ? { name: 'migrations', ready: true }
          : { name: 'migrations', ready: false, detail: `schema version ${schemaVersion}, expected ${expectedSchemaVersion}` },
      );
    } catch {
      checks.push({ name: 'database', ready: false, detail: 'the database does not answer' });
    }
  }
  checks.push(...(services?.() ?? []));
  return { status: checks.every((check) => check.ready) ? 'ready' : 'not ready', checks };
}
