/** Where the installer writes for people: every text passes through the secret mask first. */
export interface Output {
  /** Progress, summaries, dry-run listings. */
  out(text: string): void;
  /** Failures. */
  err(text: string): void;
  /** True when `out` is a terminal: progress then shows a running step and rewrites it. */
  readonly live: boolean;
  /** Colours and marks. */
  readonly color: boolean;
}

export function createOutput(
  mask: (text: string) => string,
  streams: { stdout: NodeJS.WritableStream & { isTTY?: boolean }; stderr: NodeJS.WritableStream } = process,
  options: { color?: boolean } = {},
): Output {
  const live = streams.stdout.isTTY === true;
  return {
    live,
    color: options.color ?? (live && !process.env.NO_COLOR),
    out: (text) => void streams.stdout.write(mask(text)),
    err: (text) => void streams.stderr.write(mask(text)),
  };
}

/** An output that keeps everything in memory (tests). */
export function createMemoryOutput(mask: (text: string) => string = (text) => text): Output & { stdout: string; stderr: string } {
  const memory = {
    live: false,
    color: false,
    stdout: '',
    stderr: '',
    out(text: string) {
      memory.stdout += mask(text);
    },
    err(text: string) {
      memory.stderr += mask(text);
    },
  };
  return memory;
}
