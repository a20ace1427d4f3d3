import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** TypeScript's native compiler, the one `npm run typecheck` runs: a check of a few files takes well under a second. */
const TSC = fileURLToPath(new URL('../../node_modules/typescript7/bin/tsc', import.meta.url));

/** `tsc -p project --pretty false` in `cwd`: its exit code and its diagnostics (stdout), one a line. */
export async function nativeTypecheck(project: string, cwd: string): Promise<{ code: number; stdout: string }> {
  return promisify(execFile)(process.execPath, [TSC, '-p', project, '--pretty', 'false'], { cwd }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}
