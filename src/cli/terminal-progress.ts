import { onReadProgress, type ReadProgress } from '../progress/reads.js';

/** Stderr as much as this needs. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * One status line on stderr while a plan reads the server and Graphite, rewritten in place (`reading alerts 3,200,
 * channels 40...`, `backtest: 120/400 series`), and erased when done. Only on a terminal, and only once the read
 * has taken `delayMs`: a quick plan, a pipe or a CI log never see it. Returns the function that stops it.
 */
export function showReadProgress(stream: ProgressStream = process.stderr, options: { delayMs?: number; everyMs?: number; now?: () => number } = {}): () => void {
  if (!stream.isTTY) return () => {};
  const now = options.now ?? Date.now;
  const started = now();
  const delayMs = options.delayMs ?? 300;
  const everyMs = options.everyMs ?? 100;
  const lists = new Map<string, number>();
  let series: { done: number; total: number } | undefined;
  let shown = false;
  let lastDraw = 0;
  const draw = (force: boolean) => {
    const at = now();
    if (at - started < delayMs || (!force && at - lastDraw < everyMs)) return;
    lastDraw = at;
    const parts = [...lists].map(([list, items]) => `${list} ${items.toLocaleString('en-US')}`);
    const text = series ? `backtest: ${series.done}/${series.total} series read` : `reading ${parts.join(', ')}`;
    stream.write(`\r\x1b[2K${text}`);
    shown = true;
  };
  const stop = onReadProgress((progress: ReadProgress) => {
    if (progress.kind === 'list') lists.set(progress.list, progress.items);
    else series = { done: progress.done, total: progress.total };
    draw(progress.kind === 'series' && progress.done === progress.total);
  });
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    stop();
    if (shown) stream.write('\r\x1b[2K');
  };
}
