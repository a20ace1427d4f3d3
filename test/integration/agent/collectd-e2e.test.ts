import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { copyFile, mkdtemp, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';
import { runCli } from '../../helpers/run-cli.js';
import { until } from '../../helpers/until.js';
import { hasCommand, systemPart } from '../../helpers/system.js';

// End to end: the real installer with the real runner (apt-get runs only when dpkg says collectd-core is
// missing), then the real collectd with the written config, sending to a real carbon; the metrics must show up
// in graphite-web under the prefix.
const collectdPart = systemPart('collectd (collectd-core)', hasCommand('collectd') || hasCommand('/usr/sbin/collectd'));
const graphitePart = graphiteAvailability();
// collectd creates and enters its BaseDir, /var/lib/collectd: root here (CI runs as root).
const rootPart = systemPart('root (collectd needs its BaseDir /var/lib/collectd)', process.getuid?.() === 0 || canWrite('/var/lib/collectd'));
const skip = collectdPart.skip || graphitePart.skip || rootPart.skip;

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

let graphite: Graphite | undefined;
let collectd: ChildProcess | undefined;

beforeAll(async () => {
  if (!skip) graphite = await startGraphite();
});
afterAll(async () => {
  if (collectd && collectd.exitCode === null) {
    const exited = new Promise((resolve) => collectd!.once('exit', resolve));
    collectd.kill('SIGTERM');
    await exited;
  }
  await graphite?.stop();
});

describe.skipIf(skip)('agent install collectd, end to end with carbon and graphite-web', () => {
  it("installs, writes a config collectd accepts, and collectd's metrics reach graphite-web under the prefix", { timeout: 120_000 }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'alertform-collectd-e2e-'));
    await mkdir(join(root, 'etc'), { recursive: true });
    await copyFile('/etc/os-release', join(root, 'etc/os-release'));
    const carbon = `${graphite!.carbonHost}:${graphite!.carbonPort}`;

    const install = await runCli(['agent', 'install', 'collectd', '--carbon', carbon, '--prefix', 'e2e.collectd', '--no-verify', '--root', root], { timeoutMs: 300_000 });
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect(install.stdout).toContain('✔ collectd is installed and configured.');
    const configPath = join(root, 'etc/collectd/collectd.conf');
    const config = await readFile(configPath, 'utf8');
    expect(config).toContain(`Host "${graphite!.carbonHost}"\n    Port "${graphite!.carbonPort}"`);
    expect(config).toContain('Prefix "e2e.collectd."');

    // collectd in the foreground with exactly the written config.
    collectd = spawn('collectd', ['-f', '-C', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    collectd.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    collectd.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));

    // Carbon creates the whisper files one by one as points arrive (a plugin's values in any order): wait for the
    // very paths asserted below, not for the first file of each plugin.
    const wanted = async () => {
      if (collectd!.exitCode !== null) throw new Error(`collectd exited ${collectd!.exitCode}:\n${logs}`);
      const [load, memory] = await Promise.all([graphite!.findMetrics('e2e.collectd.*.load.load.*'), graphite!.findMetrics('e2e.collectd.*.memory.*')]);
      return { load, memory };
    };
    const found = await until(
      wanted,
      ({ load, memory }) => load.some((path) => path.endsWith('.load.load.shortterm')) && memory.some((path) => path.endsWith('.memory.memory-used')),
      60_000,
      250,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\ncollectd said:\n${logs}`);
    });
    expect(found.load.some((path) => /^e2e\.collectd\.[^.]+\.load\.load\.shortterm$/.test(path))).toBe(true);
    expect(found.memory.some((path) => /^e2e\.collectd\.[^.]+\.memory\.memory-used$/.test(path))).toBe(true);
  });
});
