import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Users run the Action from a tag, so the committed bundle is what runs. .ci/run checks it too; this test says so
// before landing, to whoever changed code the Action bundles (src/action, spec, client, plan, apply).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const COMMITTED = join(ROOT, 'action/dist/index.mjs');
const dir = mkdtempSync(join(tmpdir(), 'alertform-bundle-'));

function build(name: string): Buffer {
  const out = join(dir, name, 'index.mjs');
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-action.mjs'), '--outfile', out], { cwd: ROOT, stdio: 'pipe' });
  return readFileSync(out);
}

describe('the committed Action bundle', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is exactly what the sources build (run `npm run build` and commit action/dist/index.mjs if not)', () => {
    const fresh = build('a');
    expect(fresh.equals(readFileSync(COMMITTED)), 'action/dist/index.mjs is stale: run `npm run build` and commit it').toBe(true);
  });

  it('builds the same bytes twice and stays under 2 MB', () => {
    expect(build('b').equals(build('c'))).toBe(true);
    expect(statSync(COMMITTED).size).toBeLessThan(2 * 1024 * 1024);
  });
});
