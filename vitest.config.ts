import { defineConfig } from 'vitest/config';

/**
 * One project per kind of test, each runnable alone (`npm run test:unit`, `npm run test:store`, ...); `npm test`
 * runs them all. The unit project starts no database server and no child process (test/unit/docs/test-projects.test.ts
 * holds that rule): it is the loop while coding.
 */
const project = (name: string, include: string[], setupFiles: string[] = []) => ({ extends: true as const, test: { name, include, setupFiles } });

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here and in CI: more workers only thrash.
    maxWorkers: 2,
    projects: [
      project('unit', ['test/unit/**/*.test.ts', 'test/golden/**/*.test.ts'], ['test/unit/no-child-process.ts']),
      // The Store's suites, each on SQLite and on a PostgreSQL cluster of its own.
      project('store', ['test/store/**/*.test.ts']),
      // Our server, CLI, Action, package and deploy for real: child processes, real Graphite where needed.
      project('integration', ['test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/compat/**/*.test.ts']),
      project('security', ['test/security/**/*.test.ts']),
      // Crashes, failover, clock jumps, network and disk faults.
      project('reliability', ['test/reliability/**/*.test.ts']),
      // The web console in chromium.
      project('browser', ['test/browser/**/*.test.ts']),
    ],
  },
});
