import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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

export function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function hasFile(path: string): boolean {
  return existsSync(path);
}

/** A test title's note of the parts missing here: ` (skipped: …)` naming each one not installed, or nothing. */
export function missingNote(...parts: { skip: boolean; reason: string }[]): string {
  const reasons = parts.filter((part) => part.skip).map((part) => part.reason);
  return reasons.length > 0 ? ` (skipped: ${reasons.join('; ')})` : '';
}
