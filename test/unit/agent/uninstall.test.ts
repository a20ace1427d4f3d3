import { renameSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAgent } from '../../../src/agent/agents/registry.js';
import { uninstallAgent } from '../../../src/agent/uninstall.js';
import { createRoot, createTestContext, hostResponder, snapshotFiles } from './fixtures.js';

describe('agent uninstall', () => {
  it('stops the service, removes the package with apt, keeps the config and says so', async () => {
    const root = await createRoot('debian');
    await mkdir(join(root, 'etc/telegraf'), { recursive: true });
    await writeFile(join(root, 'etc/telegraf/telegraf.conf'), '# mine\n');
    const { context, runner, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    const result = await uninstallAgent(context, findAgent('telegraf')!, { dryRun: false });
    expect(result.exitCode).toBe(0);
    expect(runner.calls).toEqual([
      "sh -c 'command -v apt-get'",
      "dpkg-query -W '-f=${Status}' telegraf",
      'systemctl stop telegraf',
      'apt-get remove -y telegraf',
    ]);
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf'), 'utf8')).toBe('# mine\n');
    expect(output.stdout).toContain('✔ telegraf is uninstalled (telegraf removed, service stopped).');
    expect(output.stdout).toContain(`config kept: ${root}/etc/telegraf/telegraf.conf`);
  });

  it('uses dnf on Fedora and brew services on macOS', async () => {
    const fedora = await createRoot('fedora');
    const onFedora = createTestContext(fedora, { responder: hostResponder({ managers: ['dnf'], installed: true }) });
    await uninstallAgent(onFedora.context, findAgent('collectd')!, { dryRun: false });
    expect(onFedora.runner.calls.slice(2)).toEqual(['systemctl stop collectd', 'dnf remove -y collectd']);

    const mac = await createRoot('macos');
    const onMac = createTestContext(mac, { responder: hostResponder({ managers: ['brew'], installed: true }), host: { platform: 'darwin', uid: 501 } });
    await uninstallAgent(onMac.context, findAgent('telegraf')!, { dryRun: false });
    expect(onMac.runner.calls.slice(3)).toEqual(['brew services stop telegraf', 'brew uninstall telegraf']);
  });

  it('puts the config back when the package manager took it away', async () => {
    const root = await createRoot('fedora');
    await mkdir(join(root, 'etc'), { recursive: true });
    await writeFile(join(root, 'etc/collectd.conf'), 'Interval 5\n');
    const hostAnswers = hostResponder({ managers: ['dnf'], installed: true });
    const { context, output } = createTestContext(root, {
      responder: (argv) => {
        // dnf renames an edited config to .rpmsave when it removes the package.
        if (argv[0] === 'dnf') renameSync(join(root, 'etc/collectd.conf'), join(root, 'etc/collectd.conf.rpmsave'));
        return hostAnswers(argv);
      },
    });
    expect((await uninstallAgent(context, findAgent('collectd')!, { dryRun: false })).exitCode).toBe(0);
    expect(await readFile(join(root, 'etc/collectd.conf'), 'utf8')).toBe('Interval 5\n');
    expect(output.stdout).toContain('restored after the package manager removed it');
  });

  it('treats a service that is not running as stopped', async () => {
    const root = await createRoot('debian');
    const responder = hostResponder({ managers: ['apt-get'], installed: true });
    const { context, output } = createTestContext(root, { responder: (argv) => (argv[0] === 'systemctl' ? { code: 5 } : responder(argv)) });
    expect((await uninstallAgent(context, findAgent('otel')!, { dryRun: false })).exitCode).toBe(0);
    expect(output.stdout).toContain('systemctl stop otelcol-contrib: was not running');
  });

  it('says there is nothing to remove when the package is not installed', async () => {
    const root = await createRoot('debian');
    const { context, runner, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: false }) });
    expect((await uninstallAgent(context, findAgent('collectd')!, { dryRun: false })).exitCode).toBe(0);
    expect(runner.calls).toHaveLength(2);
    expect(output.stdout).toContain('collectd (collectd-core) is not installed: nothing to remove.');
  });

  it('prints the commands with --dry-run and runs none of them', async () => {
    const root = await createRoot('debian');
    await mkdir(join(root, 'etc/collectd'), { recursive: true });
    await writeFile(join(root, 'etc/collectd/collectd.conf'), 'x\n');
    const { context, runner, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    expect((await uninstallAgent(context, findAgent('collectd')!, { dryRun: true })).exitCode).toBe(0);
    expect(runner.calls).toHaveLength(2);
    expect(output.stdout).toContain('run       systemctl stop collectd\n');
    expect(output.stdout).toContain('run       apt-get remove -y collectd-core\n');
    expect(output.stdout).toContain(`keep      ${root}/etc/collectd/collectd.conf`);
    expect(await snapshotFiles(root)).toEqual({ '/etc/collectd/collectd.conf': 'x\n' });
  });

  it('refuses without root and reports a failed removal with what was done', async () => {
    const root = await createRoot('debian');
    const notRoot = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }), host: { uid: 1000 }, simulated: false });
    expect((await uninstallAgent(notRoot.context, findAgent('telegraf')!, { dryRun: false })).exitCode).toBe(1);
    expect(notRoot.output.stderr).toContain('needs root');
    expect(notRoot.runner.calls).not.toContain('systemctl stop telegraf');

    const failing = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true, fail: 'apt-get remove' }) });
    expect((await uninstallAgent(failing.context, findAgent('telegraf')!, { dryRun: false })).exitCode).toBe(1);
    expect(failing.output.stderr).toContain('✖ failed: apt-get remove -y telegraf');
    expect(failing.output.stderr).toContain('already done:\n    systemctl stop telegraf\n  to undo it, run:\n    systemctl restart telegraf');
    expect(failing.output.stdout).not.toContain('is uninstalled');
  });
});
