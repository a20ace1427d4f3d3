import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { systemPart } from '../../helpers/system.js';

// bin/alertform on a Node older than the supported lines: one plain message and exit 1, before anything that would
// crash (better-sqlite3's native module exits 139 on Node 20 with no output). The old Node is the machine's own
// (Debian's /usr/bin/node is 20 here), or ALERTFORM_TEST_OLD_NODE (.ci/run puts Node 20 from the npm registry there).

const BIN = fileURLToPath(new URL('../../../bin/alertform', import.meta.url));

function findOldNode(): string | undefined {
  const candidates = [process.env.ALERTFORM_TEST_OLD_NODE, '/usr/bin/node', '/usr/local/bin/node', '/bin/node'].filter(Boolean) as string[];
  for (const node of candidates) {
    try {
      const version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (Number(version.split('.')[0]) < 22) return node;
    } catch {
      // not there, or not runnable
    }
  }
  return undefined;
}

const oldNode = findOldNode();
const part = systemPart('a Node.js older than 22 (ALERTFORM_TEST_OLD_NODE)', oldNode !== undefined);
const dir = mkdtempSync(join(tmpdir(), 'alertform-old-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(part.skip)('bin/alertform on an unsupported Node', () => {
  const run = (bin: string, args: string[]) => spawnSync(oldNode!, [bin, ...args], { cwd: dir, encoding: 'utf8', timeout: 20_000 });

  it('refuses in one message naming both versions and how to get Node 24, in a clone', () => {
    for (const args of [['demo', '--port', '0', '--exit'], ['serve', '--db', ':memory:'], ['--version']]) {
      const result = run(BIN, args);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.signal).toBeNull();
      expect(result.stdout).toBe('');
      const version = execFileSync(oldNode!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      expect(result.stderr).toBe(
        `alertform: needs Node.js 22 or 24; this is Node.js ${version} (${oldNode}).\n` +
          'In this clone, `eval "$(scripts/use-node.sh 24)"` puts Node 24 first on this shell\'s PATH; then run the command again.\n',
      );
    }
    // Nothing was started or written: no database, no demo directory.
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' })).toBe('');
  });

  it('says to install Node 24 where the package is installed (no scripts/ beside bin/)', () => {
    const installed = join(dir, 'package');
    mkdirSync(join(installed, 'bin'), { recursive: true });
    copyFileSync(BIN, join(installed, 'bin', 'alertform'));
    const result = run(join(installed, 'bin', 'alertform'), ['serve']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^alertform: needs Node\.js 22 or 24; this is Node\.js \d+\.\d+\.\d+ /);
    expect(result.stderr).toContain('Install Node.js 24 (https://nodejs.org, or `nvm install 24`), then run the command again.\n');
    expect(result.stderr).not.toContain('use-node.sh');
  });
});
