import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAgent } from '../../../src/agent/agents/registry.js';
import { installAgent } from '../../../src/agent/install.js';
import { updateAgentKey, type UpdateKeyOptions } from '../../../src/agent/update-apikey.js';
import { uninstallAgent } from '../../../src/agent/uninstall.js';
import { KEY, createRoot, createTestContext, hostResponder, snapshotFiles } from './fixtures.js';

const OLD = 'oldkey-1111-2222';
const NEW = 'newkey-3333-4444-5555';
const options = (config: string): UpdateKeyOptions => ({ apiKey: NEW, config, dryRun: false, verify: false, server: 'http://127.0.0.1:9' });

async function withConfig(path: string, text: string) {
  const root = await createRoot('debian');
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
  const test = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'] }) });
  const read = () => readFile(join(root, path), 'utf8');
  return { root, ...test, read };
}

const graphite = (key: string) => `[[outputs.graphite]]\n  servers = ["carbon.hostedgraphite.com:2003"]\n  prefix = "${key}.telegraf"\n  template = "host.tags.measurement.field"\n`;
const agentSection = '[agent]\n  interval = "10s"\n';
const inputs = '[[inputs.cpu]]\n  percpu = true\n\n[[inputs.mem]]\n';

describe('update-apikey on telegraf.conf', () => {
  const layouts: Record<string, string> = {
    'first': `${graphite(OLD)}\n${agentSection}\n${inputs}`,
    'in the middle': `${agentSection}\n${graphite(OLD)}\n${inputs}`,
    'last, without a final newline': `${agentSection}\n${inputs}\n${graphite(OLD).trimEnd()}`,
  };
  for (const [where, text] of Object.entries(layouts)) {
    it(`changes only the key when the graphite section is ${where}`, async () => {
      const { context, read, output } = await withConfig('/etc/telegraf/telegraf.conf', text);
      const result = await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'));
      expect(result.exitCode).toBe(0);
      expect(text).toContain(`${OLD}.telegraf`);
      expect(await read()).toBe(text.replace(`${OLD}.telegraf`, `${NEW}.telegraf`));
      expect(output.stdout).toContain('✔ the API key is updated');
      expect(output.stdout).toContain('restart: sudo systemctl restart telegraf');
    });
  }

  it('keeps every byte of a hand-edited file: comments, odd spacing, CRLF-free tabs, a commented-out output, subtables', async () => {
    const text = [
      '# my telegraf   config',
      '#[[outputs.graphite]]',
      '#  prefix = "notme.telegraf"',
      '[global_tags]',
      '\tdc = "eu-1"  # where',
      '',
      '[[ outputs.graphite ]]   # hosted',
      '\tservers = [',
      '\t  "carbon.hostedgraphite.com:2003",',
      '\t]',
      "\tprefix='" + OLD + ".web.frontend'   # keep this comment",
      '  [outputs.graphite.tagpass]',
      '    prefix = ["not-a-prefix"]',
      '',
      '[[inputs.disk]]',
      '  ignore_fs = ["tmpfs"]',
      '',
    ].join('\n');
    const { context, read } = await withConfig('/etc/telegraf/telegraf.conf', text);
    expect((await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'))).exitCode).toBe(0);
    expect(await read()).toBe(text.replace(`'${OLD}.web`, `'${NEW}.web`));
  });

  it('keeps the file mode', async () => {
    const { context, root } = await withConfig('/etc/telegraf/telegraf.conf', graphite(OLD));
    const { chmod } = await import('node:fs/promises');
    await chmod(join(root, 'etc/telegraf/telegraf.conf'), 0o640);
    await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'));
    expect((await stat(join(root, 'etc/telegraf/telegraf.conf'))).mode & 0o777).toBe(0o640);
  });

  it('fails clearly when the file has no graphite output, and leaves it alone', async () => {
    const text = `${agentSection}\n${inputs}# [[outputs.graphite]] is not configured here\n`;
    const { context, read, output } = await withConfig('/etc/telegraf/telegraf.conf', text);
    const result = await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'));
    expect(result.exitCode).toBe(1);
    expect(output.stderr).toContain('has no [[outputs.graphite]] section: there is no graphite output whose key could be updated');
    expect(await read()).toBe(text);
  });

  it('refuses a self-hosted config: its metric names carry no key', async () => {
    const text = `${agentSection}\n[[outputs.graphite]]\n  servers = ["10.0.0.5:2003"]\n  prefix = "servers.telegraf"\n`;
    const { context, read, output } = await withConfig('/etc/telegraf/telegraf.conf', text);
    expect((await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'))).exitCode).toBe(1);
    expect(output.stderr).toContain('sends metrics to 10.0.0.5:2003 (line 4), a self-hosted carbon: its metric names carry no API key');
    expect(await read()).toBe(text);
  });

  it('updates a relay in front of Hosted Graphite when its prefix carries the key, and says so', async () => {
    const old = '5f1c2e9a-8b7d-4c3e-9a10-2b4d6f8a0c12';
    const text = `${agentSection}\n[[outputs.graphite]]\n  servers = ["relay.internal:2003"]\n  prefix = "${old}.telegraf"\n`;
    const { context, read, output } = await withConfig('/etc/telegraf/telegraf.conf', text);
    const result = await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'));
    expect(result.exitCode).toBe(0);
    expect(await read()).toBe(text.replace(`${old}.telegraf`, `${NEW}.telegraf`));
    expect(output.stdout).toContain('note: line 4 sends to relay.internal:2003, not carbon.hostedgraphite.com, but its prefix starts with an API key');
    // The keys themselves are never printed.
    expect(output.stdout).not.toContain(old);
    expect(output.stdout).not.toContain(NEW);
  });

  it('refuses a hosted output without a KEY.<name> prefix', async () => {
    const text = '[[outputs.graphite]]\n  servers = ["carbon.hostedgraphite.com:2003"]\n';
    const { context, output } = await withConfig('/etc/telegraf/telegraf.conf', text);
    expect((await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'))).exitCode).toBe(1);
    expect(output.stderr).toContain('at line 1');
    expect(output.stderr).toContain('has no KEY.<name> prefix to update');
  });

  it('says so when the file does not exist', async () => {
    const { context, output } = await withConfig('/etc/other', 'x');
    expect((await updateAgentKey(context, findAgent('telegraf')!, options('/etc/telegraf/telegraf.conf'))).exitCode).toBe(1);
    expect(output.stderr).toContain('/etc/telegraf/telegraf.conf does not exist');
  });

  it('checks the new key against the API first unless --no-verify, and a refused key changes nothing', async () => {
    const root = await createRoot('debian');
    await mkdir(join(root, 'etc/telegraf'), { recursive: true });
    await writeFile(join(root, 'etc/telegraf/telegraf.conf'), graphite(OLD));
    const { context, output, keyChecks } = createTestContext(root, {
      responder: () => undefined,
      keyCheck: { ok: false, reason: 'the API key was refused by http://127.0.0.1:9 (HTTP 401): check it and try again' },
    });
    const result = await updateAgentKey(context, findAgent('telegraf')!, { ...options('/etc/telegraf/telegraf.conf'), verify: true });
    expect(result.exitCode).toBe(1);
    expect(keyChecks).toEqual(['http://127.0.0.1:9']);
    expect(output.stderr).toContain('the API key was refused');
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf'), 'utf8')).toBe(graphite(OLD));
  });

  it('shows the changed line with --dry-run, masked, and writes nothing', async () => {
    const { context, read, output } = await withConfig('/etc/telegraf/telegraf.conf', graphite(OLD));
    expect((await updateAgentKey(context, findAgent('telegraf')!, { ...options('/etc/telegraf/telegraf.conf'), apiKey: KEY, dryRun: true })).exitCode).toBe(0);
    expect(await read()).toBe(graphite(OLD));
    expect(output.stdout).toContain('would change only here:\n      3 |   prefix = "(sensitive).telegraf"\n');
    expect(output.stdout).not.toContain(KEY);
  });
});

describe('update-apikey on otel config.yaml', () => {
  const receivers = 'receivers:\n  hostmetrics:\n    collection_interval: 30s\n    scrapers:\n      cpu: {}\n';
  const processors = (key: string) => `processors:\n  metricstransform/prefix:\n    transforms:\n      - include: ^(.*)$$\n        match_type: regexp\n        action: update\n        new_name: ${key}.otel.$\${1}\n  batch: {}\n`;
  const exporters = 'exporters:\n  carbon:\n    endpoint: carbon.hostedgraphite.com:2003\n';
  const service = 'service:\n  pipelines:\n    metrics:\n      receivers: [hostmetrics]\n      processors: [metricstransform/prefix, batch]\n      exporters: [carbon]\n';
  const layouts: Record<string, string> = {
    'first': `${exporters}${processors(OLD)}${receivers}${service}`,
    'in the middle': `${receivers}${processors(OLD)}${exporters}${service}`,
    'last': `${receivers}${service}${processors(OLD)}${exporters.trimEnd()}`,
    'hand-edited (comments, flow style, quotes)': `# mine\n${receivers}\nprocessors:   # renames\n  batch: {}\n  metricstransform/prefix: {transforms: [{include: "^(.*)$$", match_type: regexp, action: update, new_name: "${OLD}.otel.$\${1}"}]}\nexporters: {carbon: {endpoint: "carbon.hostedgraphite.com:2003"}, debug: {}}\n${service}`,
  };
  for (const [where, text] of Object.entries(layouts)) {
    it(`changes only the key when the carbon exporter is ${where}`, async () => {
      const { context, read } = await withConfig('/etc/otelcol-contrib/config.yaml', text);
      const result = await updateAgentKey(context, findAgent('otel')!, options('/etc/otelcol-contrib/config.yaml'));
      expect(result.exitCode).toBe(0);
      expect(await read()).toBe(text.replace(`${OLD}.otel`, `${NEW}.otel`));
    });
  }

  it('uses the --config given, never the default path', async () => {
    const text = `${receivers}${processors(OLD)}${exporters}${service}`;
    const { context, root } = await withConfig('/home/me/otel.yaml', text);
    await mkdir(join(root, 'etc/otelcol-contrib'), { recursive: true });
    await writeFile(join(root, 'etc/otelcol-contrib/config.yaml'), 'untouched\n');
    expect((await updateAgentKey(context, findAgent('otel')!, options('/home/me/otel.yaml'))).exitCode).toBe(0);
    expect(await readFile(join(root, 'home/me/otel.yaml'), 'utf8')).toContain(`${NEW}.otel`);
    expect(await readFile(join(root, 'etc/otelcol-contrib/config.yaml'), 'utf8')).toBe('untouched\n');
  });

  it('fails clearly without a carbon exporter, and on invalid YAML', async () => {
    const noCarbon = await withConfig('/c.yaml', `${receivers}exporters:\n  debug: {}\n`);
    expect((await updateAgentKey(noCarbon.context, findAgent('otel')!, options('/c.yaml'))).exitCode).toBe(1);
    expect(noCarbon.output.stderr).toContain('has no carbon exporter');
    const broken = await withConfig('/c.yaml', 'exporters: [\n');
    expect((await updateAgentKey(broken.context, findAgent('otel')!, options('/c.yaml'))).exitCode).toBe(1);
    expect(broken.output.stderr).toContain('not valid YAML at line');
  });
});

describe('update-apikey on collectd.conf', () => {
  const node = (key: string) => `<Plugin write_graphite>\n  <Node "hosted">\n    Host "carbon.hostedgraphite.com"\n    Port "2003"\n    Prefix "${key}.collectd."\n  </Node>\n</Plugin>\n`;
  const head = 'FQDNLookup false\nLoadPlugin cpu\n';
  const tail = '<Plugin df>\n  FSType tmpfs\n</Plugin>\n';
  for (const [where, text] of Object.entries({ first: `${node(OLD)}${head}${tail}`, 'in the middle': `${head}${node(OLD)}${tail}`, last: `${head}${tail}${node(OLD)}` })) {
    it(`changes only the key when the write_graphite block is ${where}`, async () => {
      const { context, read } = await withConfig('/etc/collectd/collectd.conf', text);
      expect((await updateAgentKey(context, findAgent('collectd')!, options('/etc/collectd/collectd.conf'))).exitCode).toBe(0);
      expect(await read()).toBe(text.replace(`${OLD}.collectd.`, `${NEW}.collectd.`));
    });
  }

  it('updates only the hosted node of a hand-edited block with a second, self-hosted node', async () => {
    const text = `${head}<Plugin "write_graphite">  # two\n\t<Node "local">\n\t\tHost "127.0.0.1"\n\t\tPrefix "local."\n\t</Node>\n  <Node hosted>\n    host   carbon.hostedgraphite.com\n    prefix "${OLD}.x."\n  </Node>\n</Plugin>\n`;
    const { context, read } = await withConfig('/etc/collectd/collectd.conf', text);
    expect((await updateAgentKey(context, findAgent('collectd')!, options('/etc/collectd/collectd.conf'))).exitCode).toBe(0);
    expect(await read()).toBe(text.replace(`"${OLD}.x.`, `"${NEW}.x.`));
  });

  it('fails clearly without a write_graphite block', async () => {
    const { context, output } = await withConfig('/etc/collectd/collectd.conf', `${head}#<Plugin write_graphite>\n`);
    expect((await updateAgentKey(context, findAgent('collectd')!, options('/etc/collectd/collectd.conf'))).exitCode).toBe(1);
    expect(output.stderr).toContain('has no <Plugin write_graphite> block');
  });
});

describe('round trip', () => {
  it('install, then update-apikey, then uninstall leaves only the config, with only the key changed', async () => {
    for (const name of ['telegraf', 'otel', 'collectd']) {
      const root = await createRoot('debian');
      const { context } = createTestContext(root, { responder: hostResponder({ managers: ['apt-get'], installed: true }) });
      const agent = findAgent(name)!;
      const installed = await installAgent(context, agent, { apiKey: OLD, dryRun: false, verify: false, server: 'http://x' });
      const path = installed.report.config as string;
      const before = await readFile(path, 'utf8');
      expect((await updateAgentKey(context, agent, options(path.slice(root.length)))).exitCode).toBe(0);
      const after = before.replace(`${OLD}.${name}`, `${NEW}.${name}`);
      expect(await readFile(path, 'utf8')).toBe(after);
      expect((await uninstallAgent(context, agent, { dryRun: false })).exitCode).toBe(0);
      expect(await snapshotFiles(root)).toEqual({ [path.slice(root.length)]: after });
    }
  });
});
