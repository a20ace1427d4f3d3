import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small file system of its own (a tmpfs), to be filled up by a test. */
export interface SmallDisk {
  dir: string;
  /** Bytes free now. */
  free(): number;
  /** Writes a filler file that leaves about `leaveBytes` free. */
  fill(leaveBytes: number): void;
  /** Removes the filler: the space is back. */
  unfill(): void;
  /** Unmounts and removes the directory. */
  remove(): void;
}

function mountTmpfs(dir: string, sizeBytes: number): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
}

/**
 * Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN; not in most unprivileged containers). Locally
 * the disk-full tests skip with the reason; in CI (CI=true) they must run, so a refusal there is a failure.
 */
export function smallDiskAvailability(): { skip: boolean; reason: string } {
  const dir = mkdtempSync(join(tmpdir(), 'alertform-disk-probe-'));
  let reason = '';
  try {
    mountTmpfs(dir, 64 * 1024);
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch (error) {
    reason = `mounting a tmpfs is not permitted here (${((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim()}): run as root with CAP_SYS_ADMIN`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (reason && process.env.CI) throw new Error(`CI must be able to mount a tmpfs: ${reason}`);
  if (reason) process.stderr.write(`skipping the disk-full tests: ${reason}\n`);
  return { skip: reason !== '', reason };
}

/** Mounts a tmpfs of `sizeBytes` on a fresh temp directory. */
export function mountSmallDisk(sizeBytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'alertform-small-disk-'));
  mountTmpfs(dir, sizeBytes);
  const filler = join(dir, 'filler');
  const free = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    free,
    fill(leaveBytes) {
      writeFileSync(filler, Buffer.alloc(Math.max(0, free() - leaveBytes)));
    },
    unfill() {
      rmSync(filler, { force: true });
    },
    remove() {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
