import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { hasCommand, systemPart } from '../../helpers/system.js';
import { nodeArgsFor } from '../../helpers/source-entry.js';

// The TUI in a real pseudo-terminal: tmux runs it detached, the test types with send-keys and reads the screen
// with capture-pane. Commands are only recorded (ALERTFORM_AGENT_RUNNER); files land under a temp --root.
const tmux = systemPart('tmux', hasCommand('tmux'));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(REPO, 'src/cli/main.ts');
/** A tmux command's output. Not synchronous: the TUI's server runs in this worker, whose loop must go on meanwhile. */
const tmuxRun = async (...args: string[]) => (await promisify(execFile)('tmux', args, { encoding: 'utf8' })).stdout;

let server: TestServer;
const sessions: string[] = [];

beforeAll(async () => {
  if (!tmux.skip) server = await startTestServer({ keys: ['good-key-1234-abcd'] });
});
afterAll(async () => server?.close());
afterEach(async () => {
  // A session already gone is what was wanted.
  await Promise.all(sessions.splice(0).map((session) => tmuxRun('-L', session, 'kill-server').catch(() => undefined)));
});

async function debianRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'alertform-tui-'));
  await mkdir(join(root, 'etc'), { recursive: true });
  await writeFile(join(root, 'etc/os-release'), 'ID=debian\nVERSION_ID="12"\n');
  return root;
}

/**
 * Starts `alertform tui ...` in a detached 250x50 tmux session on a tmux server of its own (`-L`): a shared server
 * exits when the last session is killed, and a session started meanwhile fails with "server exited unexpectedly".
 * The shell prints [exit N] when the command ends.
 */
async function startTui(root: string, args: string[]): Promise<{ keys: (...keys: string[]) => Promise<void>; type: (text: string) => Promise<void>; screen: () => Promise<string>; waitFor: (text: string | RegExp) => Promise<string> }> {
  const session = `alertform-tui-${process.pid}-${sessions.length}-${Date.now()}`;
  sessions.push(session);
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = [
    'env',
    `ALERTFORM_AGENT_RUNNER=record:${join(root, 'commands.log')}`,
    'NO_COLOR=1',
    process.execPath,
    ...nodeArgsFor(MAIN),
    '--server',
    server.url,
    'tui',
    '--root',
    root,
    ...args,
  ].map(quote).join(' ');
  await tmuxRun('-L', session, 'new-session', '-d', '-s', session, '-x', '250', '-y', '50', '-c', REPO, `${command}; echo "[exit $?]"; sleep 600`);
  const screen = () => tmuxRun('-L', session, 'capture-pane', '-p', '-S', '-', '-t', session);
  return {
    keys: async (...keys) => {
      await tmuxRun('-L', session, 'send-keys', '-t', session, ...keys);
    },
    type: async (text) => {
      await tmuxRun('-L', session, 'send-keys', '-t', session, '-l', text);
    },
    screen,
    // The screen changes when the program draws: poll it, bounded.
    async waitFor(text) {
      const deadline = Date.now() + 45_000;
      for (;;) {
        const shown = await screen();
        if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
        if (Date.now() > deadline) throw new Error(`the screen never showed ${String(text)}; it shows:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

describe.skipIf(tmux.skip)('alertform tui in a terminal (tmux)', { timeout: 120_000 }, () => {
  it('goes agent, action, masked key checked at once (a wrong one is said and asked again), custom plugins, confirm, then the steps', async () => {
    const root = await debianRoot();
    const tui = await startTui(root, []);
    await tui.waitFor('Which agent?');
    await tui.keys('Down', 'Down', 'Enter');
    await tui.waitFor('What should happen to collectd?');
    await tui.keys('Enter');
    await tui.waitFor('API key (checked with');

    await tui.type('wrong-key-0000');
    await tui.keys('Enter');
    await tui.waitFor('the API key was refused by');
    expect(await tui.screen()).toContain('? API key');
    expect(await tui.screen()).not.toContain('wrong-key-0000');

    await tui.keys('C-u');
    await tui.type('good-key-1234-abcd');
    await tui.keys('Enter');
    await tui.waitFor('Plugins?');
    expect(await tui.screen()).toContain('✔ API key');
    await tui.keys('Down', 'Enter');
    await tui.waitFor('Plugins to enable');
    // Uncheck cpu (first), check uptime (an optional one, further down).
    await tui.keys('Space');
    for (let i = 0; i < 13; i++) await tui.keys('Down');
    await tui.keys('Space', 'Enter');
    await tui.waitFor(/Install collectd with df, disk, interface, load, memory, processes, swap, uptime, sending to carbon\.hostedgraphite\.com:2003 \(hosted\)\?/);
    await tui.keys('Enter');
    const end = await tui.waitFor('[exit 0]');

    expect(end).toContain('✔ detect the platform: debian 12, apt');
    expect(end).toMatch(/✔ apt-get install -y collectd-core \(\d+ms\)/);
    expect(end).toContain('✔ collectd is installed and configured.');
    expect(end).toContain('plugins: df, disk, interface, load, memory, processes, swap, uptime');
    expect(end).toContain('with the prefix (sensitive).collectd');
    expect(end).not.toContain('good-key-1234-abcd');
    const config = await readFile(join(root, 'etc/collectd/collectd.conf'), 'utf8');
    expect(config).toContain('Prefix "good-key-1234-abcd.collectd."');
    expect(config).toContain('LoadPlugin uptime\n');
    expect(config).not.toContain('LoadPlugin cpu\n');
    expect(await readFile(join(root, 'commands.log'), 'utf8')).toBe(
      "sh -c 'command -v apt-get'\ndpkg-query -W '-f=${Status}' collectd-core\napt-get update\napt-get install -y collectd-core\n",
    );
  });

  it('leaves cleanly on Ctrl-C at the key prompt, with nothing written', async () => {
    const root = await debianRoot();
    const tui = await startTui(root, []);
    await tui.waitFor('Which agent?');
    await tui.keys('Enter');
    await tui.waitFor('What should happen to telegraf?');
    await tui.keys('Enter');
    await tui.waitFor('API key');
    await tui.type('good-key');
    await tui.keys('C-c');
    const end = await tui.waitFor('[exit 130]');
    expect(end).toContain('Cancelled: nothing was changed.');
    expect(await readdir(root)).toEqual(['etc']);
    expect(await readdir(join(root, 'etc'))).toEqual(['os-release']);
  });

  it('runs a dry run of the default plugins for a self-hosted carbon without asking for a key, and writes nothing', async () => {
    const root = await debianRoot();
    const tui = await startTui(root, ['--dry-run', '--no-verify', '--carbon', '127.0.0.1:2003']);
    await tui.waitFor('Which agent?');
    await tui.keys('Enter');
    await tui.waitFor('What should happen to telegraf?');
    await tui.keys('Enter');
    // A self-hosted carbon takes no key: none is asked for.
    await tui.waitFor('Plugins?');
    await tui.keys('Enter');
    await tui.waitFor('Dry run: show how to install telegraf with cpu, disk, diskio, kernel, mem, processes, swap, system, sending to 127.0.0.1:2003?');
    await tui.keys('Enter');
    const end = await tui.waitFor('[exit 0]');
    expect(end).not.toMatch(/[✔?] API key/);
    expect(end).toContain('check the API key: not needed: 127.0.0.1:2003 is a self-hosted carbon, which takes no key');
    expect(end).toContain('|   prefix = "telegraf"');
    expect(end).toContain('telegraf would be installed and configured.');
    expect(await readdir(join(root, 'etc'))).toEqual(['os-release']);
  });

  it('updates only the key of an existing config through the update action, defaulting to the platform path', async () => {
    const root = await debianRoot();
    await mkdir(join(root, 'etc/telegraf'), { recursive: true });
    const config = '[agent]\n  interval = "10s"\n\n[[outputs.graphite]]\n  servers = ["carbon.hostedgraphite.com:2003"]\n  prefix = "old-key-0000.telegraf"\n';
    await writeFile(join(root, 'etc/telegraf/telegraf.conf'), config);
    const tui = await startTui(root, []);
    await tui.waitFor('Which agent?');
    await tui.keys('Enter');
    await tui.waitFor('What should happen to telegraf?');
    await tui.keys('Down', 'Enter');
    await tui.waitFor('API key (checked with');
    await tui.type('good-key-1234-abcd');
    await tui.keys('Enter');
    await tui.waitFor('Config file to update: (/etc/telegraf/telegraf.conf)');
    await tui.keys('Enter');
    await tui.waitFor('Replace the API key in /etc/telegraf/telegraf.conf?');
    await tui.keys('Enter');
    const end = await tui.waitFor('[exit 0]');
    expect(end).toContain('✔ the API key is updated');
    expect(end).not.toContain('good-key-1234-abcd');
    expect(await readFile(join(root, 'etc/telegraf/telegraf.conf'), 'utf8')).toBe(config.replace('old-key-0000', 'good-key-1234-abcd'));
  });
});
