import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

describe('the demo (npm run demo)', { timeout: 180_000 }, () => {
  it('starts the bundled server, applies examples/, shows an empty second plan, and reuses its database', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'af-demo-')), 'state');
    const first = await runCli(['demo', '--port', '0', '--exit', '--dir', dir], { timeoutMs: 150_000 });
    expect(first.stdout).toMatch(/demo API key: demo-[0-9a-f]{24}/);
    expect(first.stdout).toContain('Plan: 19 to create, 0 to update, 0 to mute, 0 to delete.');
    expect(first.stdout).toContain('Apply: 19 done, 0 failed, 0 skipped.');
    expect(first.stdout.split('== 3.')[1]).toContain('No changes. The server matches the definitions.');
    expect(first.code).toBe(0);
    // From the clone's root, the hints use the clone's own paths.
    expect(first.stdout).toMatch(/^  \.\/bin\/alertform plan examples --server http:\/\/demo-\w+@127\.0\.0\.1:\d+$/m);

    const again = await runCli(['demo', '--port', '0', '--exit', '--dir', dir], { timeoutMs: 150_000 });
    expect(again.stdout.split('== 2.')[0]).toContain('No changes.');
    expect(again.stdout.match(/demo API key: (\S+)/)![1]).toBe(first.stdout.match(/demo API key: (\S+)/)![1]);
    expect(again.code).toBe(0);
  });
});
