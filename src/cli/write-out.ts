/** Writes to stdout and waits until it is flushed (so piping to `head` or a file loses nothing). */
export function writeOut(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}
