import { chmodSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import ClockBoundSequencer from './test/helpers/clock-bound-sequencer.js';
import { sourcesFromTestBuild } from './test/helpers/sources-global-setup.js';

// Node's module compile cache for every process of the run: the workers (inherited from this process's env) and
// the servers and CLIs the tests spawn, hundreds of them, which then reuse V8's compiled code of each module
// instead of compiling it again. A caller's own choice wins; the directory is the project's, not the shared /tmp.
process.env.NODE_COMPILE_CACHE ??= new URL('./node_modules/.cache/node-compile-cache', import.meta.url).pathname;

/**
 * Where the run's files go: the memory file system (/dev/shm) when it has room for them (a run holds about 700 MB at
 * most), unless TMPDIR names a place. The run writes hundreds of SQLite databases, Graphite's whisper files and
 * PostgreSQL's clusters; on a disk their writes and fsyncs cost the kernel's block and journal threads, and
 * PostgreSQL itself, 7-9% of the run's CPU (832 against 756 and 891 against 828 core-seconds in two back-to-back
 * pairs). Nothing of a run outlives it, so nothing is lost by keeping it in memory.
 */
function runTempRoot(): string {
  if (process.env.TMPDIR) return tmpdir();
  const TMPFS_MAGIC = 0x01021994;
  const NEEDED_BYTES = 2 * 1024 ** 3;
  try {
    const shm = statfsSync('/dev/shm');
    if (shm.type === TMPFS_MAGIC && shm.bavail * shm.bsize >= NEEDED_BYTES) return '/dev/shm';
  } catch {
    // No /dev/shm (not Linux): the system's temporary directory.
  }
  return tmpdir();
}

// One temporary directory for the whole run, as TMPDIR of every process of it (the workers and what they spawn):
// the tests' mkdtemp directories, servers' databases, Graphite's and PostgreSQL's files go in it, and it is
// removed when the run ends, whatever a test left behind.
// Open to every user as /tmp is (sticky): PostgreSQL's tools run as the postgres user and need to reach their files.
const runTemp = mkdtempSync(join(runTempRoot(), 'alertform-test-run-'));
chmodSync(runTemp, 0o1777);
process.env.TMPDIR = runTemp;
process.on('exit', () => rmSync(runTemp, { recursive: true, force: true }));

/**
 * One project per kind of test, each runnable alone (`npm run test:unit`, `npm run test:store`, ...); `npm test`
 * runs them all. The unit project starts no database server and no child process (test/unit/docs/test-projects.test.ts
 * holds that rule): it is the loop while coding.
 */
const project = (name: string, include: string[], options: { setupFiles?: string[]; globalSetup?: string[]; isolate?: boolean } = {}) => ({
  extends: true as const,
  test: { name, include, ...options },
});
/** Each file's CPU when ALERTFORM_TEST_FILE_CPU names a file to write it to (CONTRIBUTING.md), else nothing. */
const FILE_CPU = 'test/helpers/file-cpu.ts';
/**
 * One PostgreSQL cluster for the whole run, shared by these projects' files (each in databases of its own), and
 * src/ transpiled once for the servers and CLIs they spawn (test/helpers/sources-global-setup.ts).
 *
 * Not isolated: a worker runs file after file of its project and imports the server, the store and the helpers once,
 * not once per file (a third of a worker's CPU was importing; 31 files of integration/server took 68-69
 * core-seconds this way against 90-99 isolated). A file leaves nothing behind: it closes what it starts, restores
 * process.env, and holds nock only while it runs (test/helpers/nock-for-this-file.ts); a file that leaves node's
 * sockets or fetch patched fails (test/helpers/no-leftover-interception.ts).
 */
const sharedParts = { isolate: false, setupFiles: ['test/helpers/no-leftover-interception.ts', FILE_CPU], globalSetup: ['test/helpers/postgres-global-setup.ts', 'test/helpers/sources-global-setup.ts'] };

export default defineConfig({
  plugins: [sourcesFromTestBuild],
  test: {
    // The transpiled tree that sourcesFromTestBuild answers src/ imports with: imported by node, not the runner.
    server: { deps: { external: [/\/\.test-build\//] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here and in CI. Six workers, of which at most three run the files that wait on the clock (Graphite's
    // buckets, settle delays, leases: a small share of a core each once started) and the others the files that use
    // the CPU (about half a core each: servers and CLIs started for real), in the order ClockBoundSequencer gives.
    // vitest's own order ran the clock-bound files together and left the machine idle for minutes. More CPU-bound
    // files at once are not safe: five of them on a busy machine failed tests that judge time or wait on
    // graphite-web's CPU. `--maxWorkers=2` (or 1) on the command line when a machine is already loaded.
    maxWorkers: 6,
    sequence: { sequencer: ClockBoundSequencer },
    projects: [
      // Not isolated: a worker imports each module once for all the files it runs, not once per file (importing was
      // 40% of the project's time). Unit tests leave no global state behind: no module mocks, nock cleaned after
      // each test; `--sequence.shuffle` runs them in another order to show that they still pass.
      project('unit', ['test/unit/**/*.test.ts', 'test/golden/**/*.test.ts'], { setupFiles: ['test/unit/no-child-process.ts', FILE_CPU], isolate: false }),
      // The Store's suites, each on SQLite and on PostgreSQL.
      project('store', ['test/store/**/*.test.ts'], sharedParts),
      // Our server, CLI, Action, package and deploy for real: child processes, real Graphite where needed.
      project('integration', ['test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/compat/**/*.test.ts'], sharedParts),
      project('security', ['test/security/**/*.test.ts'], sharedParts),
      // Crashes, failover, clock jumps, network and disk faults.
      project('reliability', ['test/reliability/**/*.test.ts'], sharedParts),
      // The web console in chromium.
      project('browser', ['test/browser/**/*.test.ts'], { setupFiles: [FILE_CPU], globalSetup: ['test/helpers/chromium-global-setup.ts'] }),
    ],
  },
});
