import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store.js';
import { runCli } from '../helpers/run-cli.js';

// Issue 19, item 4. Before: the backup (destinations, PagerDuty keys, keys' hashes) was written 0644 while the
// database is 0600, and --out followed a dangling symbolic link to wherever it pointed. After: a new 0600 file,
// created with O_EXCL|O_NOFOLLOW; an existing file or any link is refused and nothing is written.

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'af-backup-sec-'));
  db = join(dir, 'alertform.db');
  const store = openSqliteStore(db);
  const account = await store.accounts.createAccount('ops@example.com');
  await store.channels.createChannel(account.id, { type: 'pagerduty', description: 'pd', destination: 'PD-ROUTING-KEY', autoResolve: true });
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const backup = (out: string) => runCli(['backup', '--out', out, '--db', db]);

describe('alertform backup writes a private new file', { timeout: 60_000 }, () => {
  it('writes the copy readable by its owner only, with the whole database in it', async () => {
    const out = join(dir, 'copy.db');
    const result = await backup(out);
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out).includes('PD-ROUTING-KEY')).toBe(true);
    expect(result.stdout).toMatch(/^Backed up .* \(\d+ bytes\)\n$/);
    // Nothing is left beside it (the scratch directory is gone).
    expect(readdirSync(dir).filter((name) => name.startsWith('.copy.db'))).toEqual([]);
  });

  it('refuses a dangling symbolic link and creates nothing where it points', async () => {
    const target = join(dir, 'elsewhere.db');
    const link = join(dir, 'dangling.db');
    symlinkSync(target, link);
    const result = await backup(link);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/dangling\.db exists already \(a file or a link\)/);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('refuses a link to an existing file and an existing file, leaving both as they were', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const link = join(dir, 'link.db');
    symlinkSync(victim, link);
    for (const out of [link, victim]) {
      const result = await backup(out);
      expect(result.code, out).toBe(1);
      expect(result.stderr).toContain('exists already');
    }
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
  });
});
