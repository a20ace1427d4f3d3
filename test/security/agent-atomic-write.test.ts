import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileRoot } from '../../src/agent/root.js';
import { findAgent } from '../../src/agent/agents/registry.js';
import { updateAgentKey } from '../../src/agent/update-apikey.js';
import { createRoot, createTestContext, hostResponder } from '../unit/agent/fixtures.js';

// Issue 12, item 8. Before: the installer wrote through `<config>.alertform-<pid>.tmp` with a plain open, so a
// local user who planted a symlink at that predictable name (in a directory they could write) made root write
// the config through it; a --config that was a symlink was replaced by a regular file. After: an unpredictable,
// exclusive (O_EXCL | O_NOFOLLOW) 0600 temp file, and a symlinked config updated in place with its link kept.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'alertform-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the installer\'s atomic write', () => {
  it('never writes through a symlink planted at the old predictable temp name', async () => {
    const victim = join(dir, 'victim');
    await writeFile(victim, 'precious\n');
    await mkdir(join(dir, 'etc'));
    await symlink(victim, join(dir, 'etc', `app.conf.alertform-${process.pid}.tmp`));
    await new FileRoot(dir).writeAtomic('/etc/app.conf', 'new config\n');
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect(await readFile(join(dir, 'etc', 'app.conf'), 'utf8')).toBe('new config\n');
  });

  it('uses an unpredictable temp name, created 0600 and exclusively', async () => {
    const seen: string[] = [];
    const root = new FileRoot(dir);
    // Two writes: two different temp names (watched through a failing rename target: a directory).
    await mkdir(join(dir, 'target-is-a-dir'));
    for (let i = 0; i < 2; i += 1) {
      await expect(root.writeAtomic('/target-is-a-dir', 'x')).rejects.toThrow();
      seen.push(...(await readdir(dir)).filter((name) => name.includes('.tmp')));
    }
    // Failed writes leave nothing behind.
    expect(seen).toEqual([]);
    const source = (await readFile(new URL('../../src/agent/root.ts', import.meta.url), 'utf8'));
    expect(source).toContain('O_EXCL');
    expect(source).toContain('O_NOFOLLOW');
    expect(source).toMatch(/randomBytes\(\d+\)/);
    await root.writeAtomic('/new.conf', 'secret key\n', 0o600);
    expect((await stat(join(dir, 'new.conf'))).mode & 0o777).toBe(0o600);
  });

  it('updates the file a symlinked --config points to and keeps the link', async () => {
    const root = await createRoot('debian');
    const real = join(root, 'srv', 'configs', 'telegraf.conf');
    await mkdir(join(root, 'srv', 'configs'), { recursive: true });
    await writeFile(real, '[[outputs.graphite]]\n  servers = ["carbon.hostedgraphite.com:2003"]\n  prefix = "oldkey-1111-2222.telegraf"\n');
    await mkdir(join(root, 'etc', 'telegraf'), { recursive: true });
    const link = join(root, 'etc', 'telegraf', 'telegraf.conf');
    await symlink(real, link);
    const { context } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }) });
    const result = await updateAgentKey(context, findAgent('telegraf')!, {
      apiKey: 'newkey-3333-4444-5555',
      config: '/etc/telegraf/telegraf.conf',
      dryRun: false,
      verify: false,
      server: 'http://127.0.0.1:9',
    });
    expect(result.exitCode).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(real);
    expect(await readFile(real, 'utf8')).toContain('newkey-3333-4444-5555.telegraf');
  });

  it('refuses a dangling symlink instead of creating a file where it points', async () => {
    await mkdir(join(dir, 'etc'));
    await symlink(join(dir, 'elsewhere', 'planted'), join(dir, 'etc', 'app.conf'));
    await expect(new FileRoot(dir).writeAtomic('/etc/app.conf', 'x')).rejects.toThrow(/is a symlink to .* which does not exist/);
  });
});
