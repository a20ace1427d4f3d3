import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const GOOD = 'good-key-1234-abcd';
let api: TestServer;
let apiUrl: string;

// The real /v2 server checks the key.
beforeAll(async () => {
  api = await startTestServer({ keys: [GOOD] });
  apiUrl = api.url;
});
afterAll(() => api.close());

async function debianRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'alertform-agent-cli-'));
  await mkdir(join(root, 'etc'), { recursive: true });
  await writeFile(join(root, 'etc/os-release'), 'ID=debian\nVERSION_ID="12"\n');
  return root;
}

// Each test spawns the CLI through tsx a few times: slow on a busy machine, hence the long timeout.
describe('alertform agent (CLI)', { timeout: 120_000 }, () => {
  it('lists the agents with --list and -l, as JSON with --json', async () => {
    const list = await runCli(['agent', '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').filter(Boolean).map((line) => line.split(' ')[0])).toEqual(['telegraf', 'otel', 'collectd']);
    expect((await runCli(['agent', '-l'])).stdout).toBe(list.stdout);
    const { formatVersion, agents: json } = JSON.parse((await runCli(['--json', 'agent', '-l'])).stdout) as { formatVersion: number; agents: { name: string; defaultPlugins: string[] }[] };
    expect(formatVersion).toBe(1);
    expect(json.find((agent) => agent.name === 'telegraf')?.defaultPlugins).toEqual(['cpu', 'disk', 'diskio', 'kernel', 'mem', 'processes', 'swap', 'system']);
  });

  it('refuses an unknown agent with a non-zero exit', async () => {
    const result = await runCli(['agent', 'install', 'nagios', '--dry-run']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("'nagios' is invalid for argument 'agent'");
    expect(result.stderr).toContain('Allowed choices are telegraf, otel, collectd');
  });

  it('requires both --api-key and --config for update-apikey', async () => {
    const noKey = await runCli(['agent', 'update-apikey', 'telegraf', '--config', '/etc/telegraf/telegraf.conf'], { env: { ALERTFORM_API_KEY: '' } });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("required option '--api-key <key>' not specified");
    const noConfig = await runCli(['agent', 'update-apikey', 'telegraf', '--api-key', GOOD]);
    expect(noConfig.code).toBe(1);
    expect(noConfig.stderr).toContain("required option '--config <path>' not specified");
    expect(noConfig.stderr + noConfig.stdout).not.toContain(GOOD);
  });

  it('refuses a wrong key before installing anything, and never prints it', async () => {
    const root = await debianRoot();
    const log = join(root, 'commands.log');
    const result = await runCli(['--server', apiUrl, 'agent', 'install', 'telegraf', '--api-key', 'wrong-key-9999', '--root', root], {
      env: { ALERTFORM_AGENT_RUNNER: `record:${log}` },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✖ failed: check the API key with ${apiUrl}`);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stdout + result.stderr).not.toContain('wrong-key-9999');
    expect(result.stdout).not.toContain('is installed and configured');
    await expect(readFile(log, 'utf8')).rejects.toThrow();
  });

  it('installs with a good key (ALERTFORM_URL), records exact commands, writes the config, masks the key', async () => {
    const root = await debianRoot();
    const log = join(root, 'commands.log');
    const result = await runCli(['agent', 'install', 'collectd', '--api-key', GOOD, '--root', root, '--plugins', 'uptime'], {
      env: { ALERTFORM_URL: apiUrl, ALERTFORM_AGENT_RUNNER: `record:${log}` },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await readFile(log, 'utf8')).toBe(
      "sh -c 'command -v apt-get'\ndpkg-query -W '-f=${Status}' collectd-core\napt-get update\napt-get install -y collectd-core\n",
    );
    expect(await readFile(join(root, 'etc/collectd/collectd.conf'), 'utf8')).toContain(`Prefix "${GOOD}.collectd."`);
    expect(result.stdout).toMatch(/✔ check the API key with http:\/\/127\.0\.0\.1:\d+: accepted \(\d+ms\)/);
    expect(result.stdout).toContain('✔ collectd is installed and configured.');
    expect(result.stdout).toContain('plugins: cpu, df, disk, interface, load, memory, processes, swap, uptime');
    expect(result.stdout).toContain('start:   sudo systemctl restart collectd');
    expect(result.stdout).not.toContain(GOOD);
  });

  it("installs against any carbon with no Hosted Graphite key: alertform serve's key in the environment is neither checked nor used", async () => {
    const root = await debianRoot();
    const log = join(root, 'commands.log');
    // A team on the bundled server keeps its key in ALERTFORM_API_KEY for plan and apply; ALERTFORM_URL is unset,
    // so a key check would go to the hosted API, which this machine cannot reach.
    const bundledKey = 'bundled-server-key-0123456789abcdef';
    const result = await runCli(['agent', 'install', 'collectd', '--carbon', 'graphite.internal', '--prefix', 'servers', '--root', root], {
      env: { ALERTFORM_API_KEY: bundledKey, ALERTFORM_URL: '', ALERTFORM_AGENT_RUNNER: `record:${log}` },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('- check the API key: not needed: graphite.internal:2003 is a self-hosted carbon, which takes no key');
    expect(result.stdout).toContain('metrics: sent to graphite.internal:2003 with the prefix servers');
    const config = await readFile(join(root, 'etc/collectd/collectd.conf'), 'utf8');
    expect(config).toContain('Host "graphite.internal"\n    Port "2003"\n    Protocol "tcp"\n    Prefix "servers."\n');
    expect(config + result.stdout).not.toContain(bundledKey);

    // Without --carbon and without a key, the refusal says how to reach a carbon of one's own.
    const hosted = await runCli(['agent', 'install', 'collectd', '--root', root], { env: { ALERTFORM_API_KEY: '', ALERTFORM_AGENT_RUNNER: `record:${log}` } });
    expect(hosted.code).toBe(1);
    expect(hosted.stderr).toContain('or send to your own carbon with --carbon HOST:PORT, which needs no key');
  });

  it('prints a dry run and changes nothing, with --json too', async () => {
    const root = await debianRoot();
    const text = await runCli(['agent', 'install', 'otel', '--api-key', GOOD, '--root', root, '--dry-run', '--no-verify'], {
      env: { ALERTFORM_AGENT_RUNNER: `record:${join(root, 'log')}` },
    });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('dry run: nothing was changed');
    expect(text.stdout).toContain('new_name: (sensitive).otel.$${1}');
    expect(text.stdout).not.toContain(GOOD);
    await expect(readFile(join(root, 'etc/otelcol-contrib/config.yaml'))).rejects.toThrow();

    const json = await runCli(['--json', 'agent', 'install', 'otel', '--api-key', GOOD, '--root', root, '--dry-run', '--no-verify'], {
      env: { ALERTFORM_AGENT_RUNNER: `record:${join(root, 'log')}` },
    });
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ ok: true, dryRun: true, config: `${root}/etc/otelcol-contrib/config.yaml` });
    expect(json.stdout).not.toContain(GOOD);
  });

  it('updates a key through the CLI and refuses a file without graphite output with exit 1', async () => {
    const root = await debianRoot();
    await mkdir(join(root, 'etc/telegraf'), { recursive: true });
    const config = '[[inputs.cpu]]\n\n[[outputs.graphite]]\n  servers = ["carbon.hostedgraphite.com:2003"]\n  prefix = "old-key-0000.telegraf"';
    await writeFile(join(root, 'etc/telegraf/telegraf.conf'), config);
    const ok = await runCli(['agent', 'update-apikey', 'telegraf', '--api-key', GOOD, '--config', '/etc/telegraf/telegraf.conf', '--root', root, '--no-verify']);
    expect(ok.code).toBe(0);
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf'), 'utf8')).toBe(config.replace('old-key-0000', GOOD));

    await writeFile(join(root, 'etc/telegraf/telegraf.conf'), '[[inputs.cpu]]\n');
    const none = await runCli(['agent', 'update-apikey', 'telegraf', '--api-key', GOOD, '--config', '/etc/telegraf/telegraf.conf', '--root', root, '--no-verify']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has no [[outputs.graphite]] section');
  });

  it('has --help with examples for every agent command', async () => {
    for (const command of ['install', 'update-apikey', 'uninstall']) {
      const help = await runCli(['agent', command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Examples:');
      expect(help.stdout).toContain('--root <dir>');
    }
  });
});
