import type { CommandResult } from './runner.js';
import type { PackageManager, Platform } from './platform.js';

/** The read-only query that tells whether a package is installed; `isInstalled` reads its answer. */
export function installedQuery(manager: PackageManager, pkg: string): string[] {
  switch (manager) {
    case 'apt':
      return ['dpkg-query', '-W', '-f=${Status}', pkg];
    case 'dnf':
    case 'yum':
      return ['rpm', '-q', pkg];
    case 'brew':
      return ['brew', 'list', '--versions', pkg];
  }
}

export function isInstalled(manager: PackageManager, result: CommandResult): boolean {
  if (result.code !== 0) return false;
  switch (manager) {
    case 'apt':
      return result.stdout.includes('install ok installed');
    case 'dnf':
    case 'yum':
      return result.stdout.trim() !== '' && !/not installed/.test(result.stdout);
    case 'brew':
      return result.stdout.trim() !== '';
  }
}

/** Installs a package by name, or a downloaded package file given as an absolute path. */
export function installCommand(manager: PackageManager, pkg: string): string[] {
  switch (manager) {
    case 'apt':
      return ['apt-get', 'install', '-y', pkg];
    case 'dnf':
    case 'yum':
      return [manager, 'install', '-y', pkg];
    case 'brew':
      return ['brew', 'install', pkg];
  }
}

/** Removes a package; configuration files stay (apt `remove`, not `purge`). */
export function removeCommand(manager: PackageManager, pkg: string): string[] {
  switch (manager) {
    case 'apt':
      return ['apt-get', 'remove', '-y', pkg];
    case 'dnf':
    case 'yum':
      return [manager, 'remove', '-y', pkg];
    case 'brew':
      return ['brew', 'uninstall', pkg];
  }
}

/** The command that refreshes package lists after a repository was added, when the manager needs one. */
export function refreshCommand(manager: PackageManager): string[] | undefined {
  return manager === 'apt' ? ['apt-get', 'update'] : undefined;
}

/** Commands that change the system and so need root (brew, on the contrary, refuses root). */
export function needsRoot(platform: Platform): boolean {
  return platform.manager !== 'brew';
}

/** How to (re)start and stop a service. */
export function serviceCommands(platform: Platform, service: string): { start: string[]; stop: string[] } {
  if (platform.manager === 'brew') {
    return { start: ['brew', 'services', 'restart', service], stop: ['brew', 'services', 'stop', service] };
  }
  return { start: ['systemctl', 'restart', service], stop: ['systemctl', 'stop', service] };
}
