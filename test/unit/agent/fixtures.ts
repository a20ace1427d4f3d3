import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { onTestFinished } from 'vitest';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { AgentContext } from '../../../src/agent/context.js';
import { createMemoryOutput } from '../../../src/agent/output.js';
import type { HostFacts } from '../../../src/agent/platform.js';
import { FileRoot } from '../../../src/agent/root.js';
import { createRecordingRunner, type RecordingRunner, type Responder } from '../../../src/agent/runner.js';
import type { KeyCheck } from '../../../src/agent/verify-key.js';
import { createMasker } from '../../../src/agent/mask.js';

export const OS_RELEASE = {
  debian: 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n',
  fedora: 'NAME="Fedora Linux"\nVERSION_ID=40\nID=fedora\n',
  centos: 'NAME="CentOS Linux"\nVERSION_ID="7"\nID="centos"\nID_LIKE="rhel fedora"\n',
};

export const KEY = 'a1b2c3d4-0000-4000-8000-0123456789ab';

/** A temp root with an os-release (or none for macOS), removed when the test ends. */
export async function createRoot(os: keyof typeof OS_RELEASE | 'macos'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-agent-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  if (os !== 'macos') {
    await mkdir(join(dir, 'etc'), { recursive: true });
    await writeFile(join(dir, 'etc', 'os-release'), OS_RELEASE[os]);
  }
  return dir;
}

/** Answers of a host: which package managers exist, and whether the agent package is installed. */
export function hostResponder(options: { managers: string[]; installed?: boolean; brewPrefix?: string; fail?: string }): Responder {
  return (argv) => {
    const line = argv.join(' ');
    if (options.fail && line.startsWith(options.fail)) return { code: 100, stderr: 'E: Unable to locate package\n' };
    if (argv[0] === 'sh' && argv[1] === '-c') {
      const command = argv[2]!.replace('command -v ', '');
      return options.managers.includes(command) ? { code: 0, stdout: `/usr/bin/${command}\n` } : { code: 1 };
    }
    if (line === 'brew --prefix') return { stdout: `${options.brewPrefix ?? '/opt/homebrew'}\n` };
    if (argv[0] === 'dpkg-query') return options.installed ? { stdout: 'install ok installed' } : { code: 1, stderr: 'no packages found' };
    if (argv[0] === 'rpm') return options.installed ? { stdout: 'telegraf-1.30.0-1.x86_64\n' } : { code: 1, stdout: `package ${argv[2]} is not installed\n` };
    if (line.startsWith('brew list')) return options.installed ? { stdout: 'x 1.0\n' } : { code: 1 };
    return undefined;
  };
}

export interface TestContext {
  context: AgentContext;
  runner: RecordingRunner;
  output: ReturnType<typeof createMemoryOutput>;
  keyChecks: string[];
}

export function createTestContext(
  rootDir: string,
  options: { responder: Responder; host?: Partial<HostFacts>; json?: boolean; keyCheck?: KeyCheck; simulated?: boolean },
): TestContext {
  const runner = createRecordingRunner(options.responder);
  // Tests of privileges need a runner that claims to really run things.
  const realLike: RecordingRunner = options.simulated === false ? { ...runner, simulated: false, calls: runner.calls } : runner;
  const output = createMemoryOutput(createMasker([KEY]));
  const keyChecks: string[] = [];
  const context: AgentContext = {
    root: new FileRoot(rootDir),
    runner: realLike,
    host: { platform: 'linux', arch: 'x64', uid: 0, ...options.host },
    output,
    json: options.json ?? false,
    async checkKey(server) {
      keyChecks.push(server);
      return options.keyCheck ?? { ok: true };
    },
  };
  return { context, runner, output, keyChecks };
}

/** Every file under dir with its content, paths relative to dir (os-release left out). */
export async function snapshotFiles(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (relative(dir, path) !== 'etc/os-release') files[`/${relative(dir, path)}`] = await readFile(path, 'utf8');
    }
  };
  await walk(dir);
  return files;
}

export async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}
