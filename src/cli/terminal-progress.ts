import type { ReadProgress, ReadReporter } from '../progress/reads.js';

/** Stderr as much as this needs. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** The status line: `report` goes to the reads (the client, the backtest), `stop` erases it. */
export interface ReadProgressLine {
  report: ReadReporter;
  /** Erases the line; later reports show nothing. Safe to call twice. */
  stop: () => void;
}

/**
 * One status line on stderr while a plan reads the server and Graphite, rewritten in place (`reading alerts 3,200,
 * channels 40...`, `backtest: 120/400 series`), and erased when done. Only on a terminal, and only once the read
 * has taken `delayMs`: a quick plan, a pipe or a CI log never see it.
 */
export function showReadProgress(stream: ProgressStream = process.stderr, options: { delayMs?: number; everyMs?: number; now?: () => number } = {}): ReadProgressLine {
  if (!stream.isTTY) return { report: () => {}, stop: () => {} };
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
  let stopped = false;
  const report = (progress: ReadProgress) => {
    if (stopped) return;
    if (progress.kind === 'list') lists.set(progress.list, progress.items);
    else series = { done: progress.done, total: progress.total };
    draw(progress.kind === 'series' && progress.done === progress.total);
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (shown) stream.write('\r\x1b[2K');
  };
  return { report, stop };
}
