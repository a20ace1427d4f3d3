import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether a system part (a Debian package's binary or file) is here. Locally a missing part makes its tests skip
 * with a visible reason; in CI (CI=true) it is a failure, because .ci/run installs every part.
 */
export function systemPart(name: string, present: boolean): { skip: boolean; reason: string } {
  const reason = `${name} is not installed (apt-get install it, or run .ci/run)`;
  if (!present && process.env.CI) throw new Error(`CI must have ${name}: ${reason}`);
  if (!present) process.stderr.write(`skipping tests that need ${name}: ${reason}\n`);
  return { skip: !present, reason };
}

/**
 * Whether `command` runs here, as the shell's `command -v` finds it: a path, or a name in a PATH directory. Looked
 * up in this process, not in a shell: each process a worker starts costs it dear (CONTRIBUTING.md).
 */
export function hasCommand(command: string): boolean {
  const candidates = command.includes('/') ? [command] : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, command));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}

export function hasFile(path: string): boolean {
  return existsSync(path);
}

/** A test title's note of the parts missing here: ` (skipped: …)` naming each one not installed, or nothing. */
export function missingNote(...parts: { skip: boolean; reason: string }[]): string {
  const reasons = parts.filter((part) => part.skip).map((part) => part.reason);
  return reasons.length > 0 ? ` (skipped: ${reasons.join('; ')})` : '';
}
