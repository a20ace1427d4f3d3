import { chmod, chown, copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

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
   * file. An existing file keeps its mode and, when we may, its owner.
   */
  async writeAtomic(path: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
    const target = this.resolve(path);
    await mkdir(dirname(target), { recursive: true });
    const previous = await stat(target).catch(() => undefined);
    const temp = `${target}.alertform-${process.pid}.tmp`;
    try {
      await writeFile(temp, content, { mode: previous ? previous.mode & 0o7777 : mode });
      await chmod(temp, previous ? previous.mode & 0o7777 : mode);
      if (previous && process.getuid?.() === 0) await chown(temp, previous.uid, previous.gid).catch(() => undefined);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Copies a file (a backup), atomically at the destination. */
  async copy(from: string, to: string): Promise<void> {
    const target = this.resolve(to);
    const temp = `${target}.alertform-${process.pid}.tmp`;
    try {
      await copyFile(this.resolve(from), temp);
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

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
