import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, open, readFile, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The one place every file path of the installer goes through. `dir` is `/` on a real host; tests and staging
 * use a temp dir (like DESTDIR): files land under it, while the paths written INSIDE configs stay the host's.
 */
export class FileRoot {
  readonly dir: string;

  constructor(dir = '/', private readonly cwd = process.cwd()) {
    this.dir = resolve(cwd, dir);
  }

  /** The real path of a host path: absolute host paths are joined to the root, relative ones to the cwd first. */
  resolve(path: string): string {
    const hostPath = isAbsolute(path) ? path : resolve(this.cwd, path);
    return this.dir === '/' ? hostPath : join(this.dir, hostPath);
  }

  /** The file's text, or undefined when it does not exist. */
  async read(path: string): Promise<string | undefined> {
    try {
      return await readFile(this.resolve(path), 'utf8');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async exists(path: string): Promise<boolean> {
    try {
      await stat(this.resolve(path));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /**
   * Writes through a temp file in the same directory and a rename, so a reader (or a Ctrl-C) never sees half a
   * file. An existing file keeps its mode and, when we may, its owner. The temp file has an unpredictable name and
   * is created exclusively, 0600, without following symlinks: running as root in a directory others can write, a
   * symlink planted at the temp name cannot redirect the write. A target that is a symlink (a config kept
   * elsewhere) updates the file it points to and stays a link.
   */
  async writeAtomic(path: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
    const target = await followLink(this.resolve(path));
    await mkdir(dirname(target), { recursive: true });
    const previous = await stat(target).catch(() => undefined);
    const finalMode = previous ? previous.mode & 0o7777 : mode;
    const temp = tempPathFor(target);
    try {
      const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        await handle.writeFile(content);
        if (previous && process.getuid?.() === 0) await handle.chown(previous.uid, previous.gid).catch(() => undefined);
        await handle.chmod(finalMode);
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Copies a file (a backup), atomically at the destination, through an exclusive temp file as writeAtomic. */
  async copy(from: string, to: string): Promise<void> {
    const target = this.resolve(to);
    const temp = tempPathFor(target);
    try {
      await copyFile(this.resolve(from), temp, constants.COPYFILE_EXCL);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async mkdir(path: string): Promise<void> {
    await mkdir(this.resolve(path), { recursive: true });
  }

  async remove(path: string): Promise<void> {
    await rm(this.resolve(path), { force: true });
  }
}

/** `.NAME.alertform-<random>.tmp` beside the target: hidden, and not guessable in advance. */
function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.alertform-${randomBytes(12).toString('hex')}.tmp`);
}

/** The file a path stands for: the path itself, or where its symlink (chain) points. */
async function followLink(path: string): Promise<string> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return path;
  } catch (error) {
    if (isNotFound(error)) return path;
    throw error;
  }
  try {
    return await realpath(path);
  } catch (error) {
    // A dangling link is not followed: creating a file wherever it points is what a planted link would want.
    if (isNotFound(error)) throw new Error(`${path} is a symlink to ${await readlink(path)}, which does not exist`);
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
