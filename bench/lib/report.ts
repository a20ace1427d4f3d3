/** Printing helpers shared by the benchmarks: aligned tables, ratios and goal verdicts. */

/** Prints rows as an aligned plain-text table (also valid Markdown), headed by `title`. */
export function printTable(title: string, header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(`${line(cells[0]!)}\n`);
  process.stdout.write(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |\n`);
  for (const row of cells.slice(1)) process.stdout.write(`${line(row)}\n`);
}

/** `value / baseline` as a percentage with no decimals, e.g. "63%". */
export function percentOf(value: number, baseline: number): string {
  return baseline > 0 ? `${Math.round((value / baseline) * 100)}%` : 'n/a';
}

/** `value / baseline` as a multiplier, e.g. "2.4x". */
export function timesOf(value: number, baseline: number): string {
  return baseline > 0 ? `${(value / baseline).toFixed(1)}x` : 'n/a';
}

/** One goal line: what was asked, what was measured, and whether it is met. */
export function printGoal(goal: string, measured: string, met: boolean): void {
  process.stdout.write(`goal: ${goal} -> ${measured} ${met ? 'MET' : 'NOT MET'}\n`);
}

/** Milliseconds as "1234 ms" or "1.23 s". */
export function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** The machine the figures come from: they only compare with figures of the same run. */
export async function describeMachine(): Promise<string> {
  const os = await import('node:os');
  const load = os.loadavg().map((value) => value.toFixed(1)).join(' ');
  return `node ${process.version}, ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, load average ${load}`;
}
