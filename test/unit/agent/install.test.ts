import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAgent } from '../../../src/agent/agents/registry.js';
import { installAgent, type InstallOptions } from '../../../src/agent/install.js';
import { KEY, createRoot, createTestContext, hostResponder, modeOf, snapshotFiles } from './fixtures.js';

const base: InstallOptions = { apiKey: KEY, dryRun: false, verify: true, server: 'http://127.0.0.1:9' };
const agent = (name: string) => findAgent(name)!;

describe('agent install on each platform', () => {
  it('installs telegraf on Debian from the InfluxData apt repository with exactly these commands and files', async () => {
    const root = await createRoot('debian');
    const { context, runner, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }) });
    const result = await installAgent(context, agent('telegraf'), base);
    expect(result.exitCode).toBe(0);
    expect(runner.calls).toEqual([
      "sh -c 'command -v apt-get'",
      "dpkg-query -W '-f=${Status}' telegraf",
      `download https://repos.influxdata.com/influxdata-archive.key -> ${root}/etc/apt/keyrings/influxdata-archive.asc`,
      'apt-get update',
      'apt-get install -y telegraf',
    ]);
    const files = await snapshotFiles(root);
    expect(Object.keys(files).sort()).toEqual(['/etc/apt/sources.list.d/influxdata.list', '/etc/telegraf/telegraf.conf']);
    expect(files['/etc/apt/sources.list.d/influxdata.list']).toBe(
      'deb [signed-by=/etc/apt/keyrings/influxdata-archive.asc] https://repos.influxdata.com/debian stable main\n',
    );
    const config = files['/etc/telegraf/telegraf.conf']!;
    expect(config).toContain(`[[outputs.graphite]]\n  servers = ["carbon.hostedgraphite.com:2003"]\n  prefix = "${KEY}.telegraf"\n`);
    for (const input of ['cpu', 'disk', 'diskio', 'kernel', 'mem', 'processes', 'swap', 'system']) expect(config).toContain(`[[inputs.${input}]]\n`);
    expect(config).not.toContain('[[inputs.netstat]]');
    expect(await modeOf(join(root, 'etc/telegraf/telegraf.conf'))).toBe(0o644);
    // The summary: success, plugins, config path, start command; and the key is never printed.
    expect(output.stdout).toContain('✔ telegraf is installed and configured.');
    expect(output.stdout).toContain('plugins: cpu, disk, diskio, kernel, mem, processes, swap, system');
    expect(output.stdout).toContain(`config:  ${root}/etc/telegraf/telegraf.conf`);
    expect(output.stdout).toContain('start:   sudo systemctl restart telegraf');
    expect(output.stdout).not.toContain(KEY);
    expect(output.stdout).toContain('(sensitive).telegraf');
  });

  it('installs telegraf on Fedora with a dnf repository file and dnf install', async () => {
    const root = await createRoot('fedora');
    const { context, runner } = createTestContext(root, { responder: hostResponder({ managers: ['dnf', 'yum'] }) });
    expect((await installAgent(context, agent('telegraf'), base)).exitCode).toBe(0);
    expect(runner.calls).toEqual(["sh -c 'command -v dnf'", 'rpm -q telegraf', 'dnf install -y telegraf']);
    const files = await snapshotFiles(root);
    expect(files['/etc/yum.repos.d/influxdata.repo']).toBe(
      '[influxdata]\nname = InfluxData Repository - Stable\nbaseurl = https://repos.influxdata.com/stable/$basearch/main\nenabled = 1\ngpgcheck = 1\ngpgkey = https://repos.influxdata.com/influxdata-archive.key\n',
    );
    expect(files['/etc/telegraf/telegraf.conf']).toContain(`prefix = "${KEY}.telegraf"`);
  });

  it('falls back to yum where dnf is missing', async () => {
    const root = await createRoot('centos');
    const { context, runner } = createTestContext(root, { responder: hostResponder({ managers: ['yum'] }) });
    expect((await installAgent(context, agent('collectd'), base)).exitCode).toBe(0);
    expect(runner.calls).toEqual(["sh -c 'command -v dnf'", "sh -c 'command -v yum'", 'rpm -q collectd', 'yum install -y collectd']);
    expect(Object.keys(await snapshotFiles(root))).toEqual(['/etc/collectd.conf']);
  });

  it('installs telegraf on macOS with Homebrew, config in Homebrew etc, started by brew services, without root', async () => {
    const root = await createRoot('macos');
    const { context, runner, output } = createTestContext(root, {
      responder: hostResponder({ managers: ['brew'], brewPrefix: '/usr/local' }),
      host: { platform: 'darwin', arch: 'arm64', uid: 501 },
      simulated: false,
    });
    expect((await installAgent(context, agent('telegraf'), base)).exitCode).toBe(0);
    expect(runner.calls).toEqual(["sh -c 'command -v brew'", 'brew --prefix', 'brew list --versions telegraf', 'brew install telegraf']);
    expect(Object.keys(await snapshotFiles(root))).toEqual(['/usr/local/etc/telegraf.conf']);
    expect(output.stdout).toContain('start:   brew services restart telegraf');
  });

  it('installs otel from the release deb with the hostmetrics receiver, batch and carbon exporter', async () => {
    const root = await createRoot('debian');
    const { context, runner } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }), host: { arch: 'arm64' } });
    expect((await installAgent(context, agent('otel'), base)).exitCode).toBe(0);
    expect(runner.calls).toEqual([
      "sh -c 'command -v apt-get'",
      "dpkg-query -W '-f=${Status}' otelcol-contrib",
      `download https://github.com/open-telemetry/opentelemetry-collector-releases/releases/download/v0.115.0/otelcol-contrib_0.115.0_linux_arm64.deb -> ${root}/var/cache/alertform/otelcol-contrib_0.115.0_linux_arm64.deb`,
      `apt-get install -y ${root}/var/cache/alertform/otelcol-contrib_0.115.0_linux_arm64.deb`,
    ]);
    const config = (await snapshotFiles(root))['/etc/otelcol-contrib/config.yaml']!;
    expect(config).toContain('  hostmetrics:\n    collection_interval: 30s\n    scrapers:\n      cpu: {}\n');
    expect(config).toContain(`        new_name: ${KEY}.otel.$\${1}\n`);
    expect(config).toContain('  carbon:\n    endpoint: carbon.hostedgraphite.com:2003\n');
    expect(config).toContain('      processors: [metricstransform/prefix, batch]\n      exporters: [carbon]\n');
  });

  it('installs otel from the release rpm with dnf', async () => {
    const root = await createRoot('fedora');
    const { context, runner } = createTestContext(root, { responder: hostResponder({ managers: ['dnf'] }) });
    expect((await installAgent(context, agent('otel'), base)).exitCode).toBe(0);
    expect(runner.calls.slice(2)).toEqual([
      `download https://github.com/open-telemetry/opentelemetry-collector-releases/releases/download/v0.115.0/otelcol-contrib_0.115.0_linux_x86_64.rpm -> ${root}/var/cache/alertform/otelcol-contrib_0.115.0_linux_x86_64.rpm`,
      `dnf install -y ${root}/var/cache/alertform/otelcol-contrib_0.115.0_linux_x86_64.rpm`,
    ]);
  });

  it('installs collectd-core on Debian with a write_graphite node', async () => {
    const root = await createRoot('debian');
    const { context, runner } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }) });
    expect((await installAgent(context, agent('collectd'), { ...base, addPlugins: ['uptime'] })).exitCode).toBe(0);
    expect(runner.calls).toEqual(["sh -c 'command -v apt-get'", "dpkg-query -W '-f=${Status}' collectd-core", 'apt-get update', 'apt-get install -y collectd-core']);
    const config = (await snapshotFiles(root))['/etc/collectd/collectd.conf']!;
    expect(config).toContain('LoadPlugin cpu\nLoadPlugin df\nLoadPlugin disk\nLoadPlugin interface\nLoadPlugin load\nLoadPlugin memory\nLoadPlugin processes\nLoadPlugin swap\nLoadPlugin uptime\n');
    expect(config).toContain(`    Host "carbon.hostedgraphite.com"\n    Port "2003"\n    Protocol "tcp"\n    Prefix "${KEY}.collectd."\n`);
  });

  it('skips the package steps when the package is already installed', async () => {
    const root = await createRoot('debian');
    const { context, runner, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    expect((await installAgent(context, agent('collectd'), base)).exitCode).toBe(0);
    expect(runner.calls).toEqual(["sh -c 'command -v apt-get'", "dpkg-query -W '-f=${Status}' collectd-core"]);
    expect(output.stdout).toContain('check whether collectd-core is installed: yes, the package step is skipped');
  });

  it('adds the named plugins to the defaults, any telegraf input included', async () => {
    const root = await createRoot('debian');
    const { context } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    const result = await installAgent(context, agent('telegraf'), { ...base, addPlugins: ['netstat', 'temp', 'nginx'] });
    expect(result.report.plugins).toEqual(['cpu', 'disk', 'diskio', 'kernel', 'mem', 'processes', 'swap', 'system', 'netstat', 'temp', 'nginx']);
    const config = await readFile(join(root, 'etc/telegraf/telegraf.conf'), 'utf8');
    expect(config).toContain('[[inputs.netstat]]\n');
    expect(config.trimEnd().endsWith('[[inputs.nginx]]')).toBe(true);
  });
});

describe('the metric prefix and the key', () => {
  it('uses --prefix (default the agent name) for a self-hosted carbon, and the key appears nowhere', async () => {
    const root = await createRoot('debian');
    const { context, keyChecks } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    await installAgent(context, agent('telegraf'), { ...base, carbon: '10.0.0.5:2003' });
    const config = await readFile(join(root, 'etc/telegraf/telegraf.conf'), 'utf8');
    expect(config).toContain('servers = ["10.0.0.5:2003"]\n  prefix = "telegraf"\n');
    expect(config).not.toContain(KEY);
    // The key given (an ALERTFORM_API_KEY for alertform serve, say) is not the carbon's business: not checked.
    expect(keyChecks).toEqual([]);

    await installAgent(context, agent('collectd'), { ...base, carbon: '10.0.0.5:2004', prefix: 'servers.web' });
    const collectdConfig = await readFile(join(root, 'etc/collectd/collectd.conf'), 'utf8');
    expect(collectdConfig).toContain('Host "10.0.0.5"\n    Port "2004"\n    Protocol "tcp"\n    Prefix "servers.web."\n');
    expect(collectdConfig).not.toContain(KEY);
  });

  it('needs no key for a self-hosted carbon, and then checks none', async () => {
    const root = await createRoot('debian');
    const { context, keyChecks, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    const result = await installAgent(context, agent('otel'), { ...base, apiKey: undefined, carbon: '127.0.0.1:2003' });
    expect(result.exitCode).toBe(0);
    expect(keyChecks).toEqual([]);
    expect(output.stdout).toContain('check the API key: not needed: 127.0.0.1:2003 is a self-hosted carbon, which takes no key');
    expect(await readFile(join(root, 'etc/otelcol-contrib/config.yaml'), 'utf8')).toContain('new_name: otel.$${1}');
    // HOST alone is the plaintext port, 2003.
    expect((await installAgent(context, agent('collectd'), { ...base, apiKey: undefined, carbon: 'graphite.internal' })).exitCode).toBe(0);
    expect(await readFile(join(root, 'etc/collectd/collectd.conf'), 'utf8')).toContain('Host "graphite.internal"\n    Port "2003"\n');
  });

  it('puts KEY.<prefix> for the hosted endpoint even with --prefix', async () => {
    const root = await createRoot('debian');
    const { context } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    await installAgent(context, agent('telegraf'), { ...base, carbon: 'carbon.hostedgraphite.com:2003', prefix: 'web' });
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf'), 'utf8')).toContain(`prefix = "${KEY}.web"`);
  });
});

describe('existing configs', () => {
  it('backs up an existing config to <path>.bak before replacing it, and never overwrites an earlier backup', async () => {
    const root = await createRoot('debian');
    await mkdir(join(root, 'etc/telegraf'), { recursive: true });
    await writeFile(join(root, 'etc/telegraf/telegraf.conf'), '# the packaged config\n');
    const { context, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    await installAgent(context, agent('telegraf'), base);
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf.bak'), 'utf8')).toBe('# the packaged config\n');
    expect(output.stdout).toContain(`the previous one is kept at ${root}/etc/telegraf/telegraf.conf.bak`);

    await installAgent(context, agent('telegraf'), { ...base, addPlugins: ['netstat'] });
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf.bak'), 'utf8')).toBe('# the packaged config\n');
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf.bak.1'), 'utf8')).not.toContain('netstat');
  });

  it('leaves an identical config alone: no backup, no write', async () => {
    const root = await createRoot('debian');
    const { context, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    await installAgent(context, agent('collectd'), base);
    await installAgent(context, agent('collectd'), base);
    expect(Object.keys(await snapshotFiles(root))).toEqual(['/etc/collectd/collectd.conf']);
    expect(output.stdout).toContain('already up to date');
  });

  it('writes to --config instead of the default path', async () => {
    const root = await createRoot('debian');
    const { context } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    await installAgent(context, agent('collectd'), { ...base, config: '/opt/collectd/etc/collectd.conf' });
    expect(Object.keys(await snapshotFiles(root))).toEqual(['/opt/collectd/etc/collectd.conf']);
  });
});

describe('--dry-run', () => {
  it('prints every command and every file with its content, masks the key, and changes nothing', async () => {
    const root = await createRoot('debian');
    await mkdir(join(root, 'etc/telegraf'), { recursive: true });
    await writeFile(join(root, 'etc/telegraf/telegraf.conf'), '# mine\n');
    const before = await snapshotFiles(root);
    const { context, runner, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }) });
    const result = await installAgent(context, agent('telegraf'), { ...base, dryRun: true });
    expect(result.exitCode).toBe(0);
    expect(await snapshotFiles(root)).toEqual(before);
    // Only read-only queries ran.
    expect(runner.calls).toEqual(["sh -c 'command -v apt-get'", "dpkg-query -W '-f=${Status}' telegraf"]);
    expect(output.stdout).toContain('dry run: nothing was changed');
    expect(output.stdout).toContain(`mkdir     ${root}/etc/apt/keyrings`);
    expect(output.stdout).toContain('download  https://repos.influxdata.com/influxdata-archive.key');
    expect(output.stdout).toContain('run       apt-get update\n');
    expect(output.stdout).toContain('run       apt-get install -y telegraf\n');
    expect(output.stdout).toContain(`copy      ${root}/etc/telegraf/telegraf.conf\n            to ${root}/etc/telegraf/telegraf.conf.bak`);
    expect(output.stdout).toContain(`write     ${root}/etc/telegraf/telegraf.conf (`);
    expect(output.stdout).toContain('            |   prefix = "(sensitive).telegraf"\n');
    expect(output.stdout).toContain('            | [[inputs.system]]\n');
    expect(output.stdout).not.toContain(KEY);
    expect(output.stdout).not.toContain('is installed and configured');
  });

  it('answers a JSON plan with --json', async () => {
    const root = await createRoot('debian');
    const { context, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }), json: true });
    await installAgent(context, agent('collectd'), { ...base, dryRun: true });
    const report = JSON.parse(output.stdout);
    expect(report).toMatchObject({ ok: true, dryRun: true, agent: 'collectd', prefix: '(sensitive).collectd' });
    expect(report.wouldRun.map((step: { kind: string; command?: string }) => step.command ?? step.kind)).toEqual([
      'apt-get update',
      'apt-get install -y collectd-core',
      'write',
    ]);
  });
});

describe('failures and refusals', () => {
  it('stops at a failed step: says what failed, what was done and how to undo it, with no success summary', async () => {
    const root = await createRoot('debian');
    const { context, runner, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], fail: 'apt-get install' }) });
    const result = await installAgent(context, agent('telegraf'), base);
    expect(result.exitCode).toBe(1);
    expect(runner.calls.at(-1)).toBe('apt-get install -y telegraf');
    expect(output.stdout).toContain('✖ apt-get install -y telegraf');
    expect(output.stderr).toContain('✖ failed: apt-get install -y telegraf');
    expect(output.stderr).toContain('why: exit 100: E: Unable to locate package');
    expect(output.stderr).toContain(
      `already done:\n    create ${root}/etc/apt/keyrings\n    download https://repos.influxdata.com/influxdata-archive.key\n` +
        `    write ${root}/etc/apt/sources.list.d/influxdata.list\n    apt-get update\n`,
    );
    expect(output.stderr).toContain(
      `to undo it, run:\n    rm ${root}/etc/apt/sources.list.d/influxdata.list\n    rm ${root}/etc/apt/keyrings/influxdata-archive.asc\n` +
        `    rmdir ${root}/etc/apt/keyrings   (if empty)\n`,
    );
    expect(output.stdout + output.stderr).not.toContain('is installed and configured');
    expect(await snapshotFiles(root)).not.toHaveProperty('/etc/telegraf/telegraf.conf');
  });

  it('reports a failure as JSON with --json: the failed step, what was done and the undo commands', async () => {
    const root = await createRoot('debian');
    const { context, output } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], fail: 'apt-get install' }), json: true });
    expect((await installAgent(context, agent('collectd'), base)).exitCode).toBe(1);
    const report = JSON.parse(output.stdout);
    expect(report).toMatchObject({
      ok: false,
      agent: 'collectd',
      failed: { step: 'apt-get install -y collectd-core', reason: 'exit 100: E: Unable to locate package' },
      done: ['apt-get update'],
      undo: [],
    });
    expect(report.steps.map((step: { status: string }) => step.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'failed']);
    expect(output.stderr).toBe('');
  });

  it('refuses a wrong key before anything is installed', async () => {
    const root = await createRoot('debian');
    const { context, runner, output } = createTestContext(root, {
      responder: hostResponder({ managers: ['apt-get'] }),
      keyCheck: { ok: false, reason: 'the API key was refused by http://127.0.0.1:9 (HTTP 401): check it and try again' },
    });
    const result = await installAgent(context, agent('telegraf'), base);
    expect(result.exitCode).toBe(1);
    expect(runner.calls).toEqual([]);
    expect(output.stderr).toContain('✖ failed: check the API key with http://127.0.0.1:9');
    expect(output.stderr).toContain('already done: nothing; the host was not changed');
    expect(await snapshotFiles(root)).toEqual({});
  });

  it('skips the key check with --no-verify', async () => {
    const root = await createRoot('debian');
    const { context, keyChecks } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
    expect((await installAgent(context, agent('telegraf'), { ...base, verify: false })).exitCode).toBe(0);
    expect(keyChecks).toEqual([]);
  });

  it('refuses to install system packages without root, before changing anything', async () => {
    const root = await createRoot('debian');
    const { context, runner, output } = createTestContext(root, {
      responder: hostResponder({ managers: ['apt-get'] }),
      host: { uid: 1000 },
      simulated: false,
    });
    const result = await installAgent(context, agent('collectd'), base);
    expect(result.exitCode).toBe(1);
    expect(output.stderr).toContain("✖ failed: check privileges\n  why: 'apt-get update' needs root: run this again with sudo");
    expect(runner.calls).not.toContain('apt-get update');
    expect(await snapshotFiles(root)).toEqual({});
  });

  it('needs no root when the package is there and the config goes under a staging --root', async () => {
    const root = await createRoot('debian');
    const { context, output } = createTestContext(root, {
      responder: hostResponder({ managers: ['apt-get'], installed: true }),
      host: { uid: 1000 },
      simulated: false,
    });
    expect((await installAgent(context, agent('collectd'), base)).exitCode).toBe(0);
    expect(output.stdout).toContain('✔ check privileges: no root needed');
    expect(Object.keys(await snapshotFiles(root))).toEqual(['/etc/collectd/collectd.conf']);
  });

  it('refuses Homebrew as root', async () => {
    const root = await createRoot('macos');
    const { context, output } = createTestContext(root, {
      responder: hostResponder({ managers: ['brew'] }),
      host: { platform: 'darwin', uid: 0 },
      simulated: false,
    });
    expect((await installAgent(context, agent('collectd'), base)).exitCode).toBe(1);
    expect(output.stderr).toContain('Homebrew refuses to run as root');
  });

  it('refuses the hosted endpoint without a key, unknown otel scrapers, bad names and bad endpoints', async () => {
    const root = await createRoot('debian');
    const { context, output, runner } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }) });
    const cases: [Partial<InstallOptions>, string, string][] = [
      [{ apiKey: undefined }, 'telegraf', 'the hosted carbon endpoint routes metrics by API key: pass --api-key (or set ALERTFORM_API_KEY), or send to your own carbon with --carbon HOST:PORT, which needs no key'],
      [{ addPlugins: ['nginx'] }, 'otel', "otel has no plugin 'nginx': choose from cpu, disk"],
      [{ addPlugins: ['cpu]]\n[[x'] }, 'telegraf', 'is not a plugin name'],
      [{ carbon: 'localhost:70000' }, 'collectd', '--carbon must be HOST:PORT or HOST (port 2003)'],
      [{ carbon: 'http://graphite:2003' }, 'collectd', '--carbon must be HOST:PORT or HOST (port 2003)'],
      [{ prefix: 'a b' }, 'collectd', '--prefix must be dot-separated words'],
      [{ apiKey: 'x.y' }, 'collectd', 'the API key must be at least 4 characters'],
    ];
    for (const [options, name, message] of cases) {
      const result = await installAgent(context, agent(name), { ...base, ...options });
      expect(result.exitCode).toBe(1);
      expect(output.stderr).toContain(message);
    }
    expect(runner.calls).toEqual([]);
    expect(output.stdout).not.toContain('is installed and configured');
  });

  it('says which platforms are supported elsewhere', async () => {
    const root = await createRoot('debian');
    const { context, output } = createTestContext(root, { responder: hostResponder({ managers: [] }), host: { platform: 'win32' } });
    expect((await installAgent(context, agent('telegraf'), base)).exitCode).toBe(1);
    expect(output.stderr).toContain('win32 is not supported');
    const mac = createTestContext(root, { responder: hostResponder({ managers: ['brew'] }), host: { platform: 'darwin' } });
    expect((await installAgent(mac.context, agent('otel'), base)).exitCode).toBe(1);
    expect(mac.output.stderr).toContain('otel has no Homebrew package');
    const none = createTestContext(root, { responder: hostResponder({ managers: [] }) });
    expect((await installAgent(none.context, agent('telegraf'), base)).exitCode).toBe(1);
    expect(none.output.stderr).toContain('no supported package manager on debian 12: looked for apt-get');
  });
});
