import { constants, mkdtempSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError } from './errors.js';

/**
 * Writes a new file readable by its owner only (0600), created exclusively and never through a symbolic link: an
 * existing file and a link (dangling or not) at `path` are refused, so a backup (destinations, keys' hashes,
 * PagerDuty keys) can neither replace nor be steered to a file someone else chose. `produce` writes its content to
 * the plain file it is given (in a fresh 0700 directory beside `path`); the content is then copied into the new
 * file. On any failure the new file is removed.
 */
export async function writePrivateFile(path: string, produce: (scratchPath: string) => Promise<void>): Promise<number> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CliError(`${path} exists already (a file or a link): choose another --out, or remove it first`);
    throw new CliError(`cannot create ${path}: ${(error as Error).message}`);
  }
  const scratchDir = mkdtempSync(join(dirname(path), `.${basename(path)}.`));
  let done = false;
  try {
    // The umask may only narrow the mode; fchmod makes 0600 exact whatever it is.
    await handle.chmod(0o600);
    const scratch = join(scratchDir, 'copy');
    await produce(scratch);
    await copyInto(scratch, handle);
    await handle.sync();
    const { size } = await handle.stat();
    done = true;
    return size;
  } finally {
    await handle.close();
    rmSync(scratchDir, { recursive: true, force: true });
    if (!done) rmSync(path, { force: true });
  }
}

/** Copies a file into an open handle, a chunk at a time (a database may be bigger than memory should hold). */
async function copyInto(source: string, target: FileHandle): Promise<void> {
  const input = await open(source, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    for (;;) {
      const { bytesRead } = await input.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return;
      await target.write(chunk, 0, bytesRead);
    }
  } finally {
    await input.close();
  }
}
