import { syncBuiltinESMExports } from 'node:module';
import childProcess from 'node:child_process';

// The unit project's setup file: unit tests start no child process (so no database server, no CLI, no git), also
// not through the sources they call. A test that needs one belongs in another project (see vitest.config.ts).
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  Object.assign(childProcess, {
    [name]: () => {
      throw new Error(`child_process.${name} in a unit test: unit tests start no process; move the file to test/integration/ or test/store/`);
    },
  });
}
// Named imports (`import { spawn } from 'node:child_process'`) see the replacements too.
syncBuiltinESMExports();
