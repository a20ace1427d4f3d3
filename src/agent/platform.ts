import type { FileRoot } from './root.js';
import type { CommandRunner } from './runner.js';
import { AlertformError } from '../model/errors.js';

/** Facts about the running process that tests replace. */
export interface HostFacts {
  platform: NodeJS.Platform;
  arch: string;
  /** undefined where there are no uids (Windows). */
  uid: number | undefined;
}

export type PackageManager = 'apt' | 'dnf' | 'yum' | 'brew';

/** What the installer needs to know about the target host. */
export interface Platform {
  os: 'linux' | 'darwin';
  /** Distribution family: decides package names and config paths. */
  family: 'debian' | 'rhel' | 'other' | 'macos';
  /** For people: `debian 12`, `fedora 40`, `macOS`. */
  description: string;
  manager: PackageManager;
  /** Package architecture: amd64 or arm64. */
  arch: 'amd64' | 'arm64';
  /** Homebrew's prefix on macOS (its etc/ holds the configs). */
  brewPrefix?: string;
}

export class PlatformError extends AlertformError {
  constructor(message: string) {
    super('agent_platform', message);
  }
}

export function currentHostFacts(): HostFacts {
  return { platform: process.platform, arch: process.arch, uid: process.getuid?.() };
}

/**
 * Detects OS, distribution and package manager: /etc/os-release under the root, the process platform, and
 * which package manager exists (asked through the runner, so tests decide).
 */
export async function detectPlatform(root: FileRoot, runner: CommandRunner, host: HostFacts): Promise<Platform> {
  const arch = packageArch(host.arch);
  if (host.platform === 'darwin') {
    if (!(await hasCommand(runner, 'brew'))) {
      throw new PlatformError('Homebrew is needed on macOS and `brew` was not found: install it from https://brew.sh');
    }
    const prefix = (await runner.run(['brew', '--prefix'])).stdout.trim() || '/opt/homebrew';
    return { os: 'darwin', family: 'macos', description: 'macOS', manager: 'brew', arch, brewPrefix: prefix };
  }
  if (host.platform !== 'linux') {
    throw new PlatformError(`${host.platform} is not supported: the installer runs on Linux (apt, dnf, yum) and macOS (brew)`);
  }
  const release = parseOsRelease((await root.read('/etc/os-release')) ?? (await root.read('/usr/lib/os-release')) ?? '');
  const ids = [release.ID ?? '', ...(release.ID_LIKE ?? '').split(/\s+/)].filter(Boolean);
  const family = ids.some((id) => ['debian', 'ubuntu'].includes(id))
    ? 'debian'
    : ids.some((id) => ['rhel', 'fedora', 'centos', 'rocky', 'almalinux', 'amzn'].includes(id))
      ? 'rhel'
      : 'other';
  const description = [release.ID ?? 'linux', release.VERSION_ID].filter(Boolean).join(' ');
  const candidates: [string, PackageManager][] =
    family === 'rhel' ? [['dnf', 'dnf'], ['yum', 'yum']] : family === 'debian' ? [['apt-get', 'apt']] : [['apt-get', 'apt'], ['dnf', 'dnf'], ['yum', 'yum']];
  for (const [command, manager] of candidates) {
    if (await hasCommand(runner, command)) return { os: 'linux', family, description, manager, arch };
  }
  throw new PlatformError(
    `no supported package manager on ${description}: looked for ${candidates.map(([command]) => command).join(', ')}`,
  );
}

/** KEY=value lines of os-release(5), values unquoted. */
export function parseOsRelease(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    const raw = match[2]!.trim();
    fields[match[1]!] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return fields;
}

async function hasCommand(runner: CommandRunner, command: string): Promise<boolean> {
  return (await runner.run(['sh', '-c', `command -v ${command}`])).code === 0;
}

function packageArch(arch: string): 'amd64' | 'arm64' {
  if (arch === 'x64') return 'amd64';
  if (arch === 'arm64') return 'arm64';
  throw new PlatformError(`the ${arch} architecture is not supported: amd64 and arm64 are`);
}
