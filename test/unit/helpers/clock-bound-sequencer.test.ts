import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLOCK_BOUND_FILES, LONG_FILES, clockAwareOrder, type FileToPlace } from '../../helpers/clock-bound-sequencer.js';

/** Replays an order on a pool of `workers` (each free worker takes the next file) and reports what ran at once. */
function replay(files: FileToPlace<string>[], order: string[], workers: number): { mostClockBound: number; mostOthers: number; ends: number } {
  const byName = new Map(files.map((f) => [f.file, f]));
  const running: { ends: number; clockBound: boolean }[] = [];
  let now = 0;
  let mostClockBound = 0;
  let mostOthers = 0;
  for (const name of order) {
    if (running.length === workers) {
      running.sort((a, b) => a.ends - b.ends);
      now = running.shift()!.ends;
    }
    const file = byName.get(name)!;
    running.push({ ends: now + file.seconds, clockBound: file.clockBound });
    mostClockBound = Math.max(mostClockBound, running.filter((r) => r.clockBound).length);
    mostOthers = Math.max(mostOthers, running.filter((r) => !r.clockBound).length);
  }
  return { mostClockBound, mostOthers, ends: Math.max(...running.map((r) => r.ends)) };
}

describe('the suite order that runs clock-bound files beside the others', () => {
  const clock = [180, 130, 110, 90, 70, 70, 65, 60, 60].map((seconds, k): FileToPlace<string> => ({ file: `wait-${k}`, seconds, clockBound: true }));
  const others = Array.from({ length: 120 }, (_, k): FileToPlace<string> => ({ file: `cpu-${k}`, seconds: 1 + ((k * 37) % 30), clockBound: false }));
  const files = [...others, ...clock];

  it('starts every file once, the longest clock-bound ones first', () => {
    const order = clockAwareOrder(files, 6, 3);
    expect([...order].sort()).toEqual(files.map((f) => f.file).sort());
    expect(order.filter((name) => name.startsWith('wait-'))).toEqual(clock.map((f) => f.file));
  });

  it('never runs more clock-bound files at once than allowed while other files are left, and keeps the rest of the workers busy', () => {
    const order = clockAwareOrder(files, 6, 3);
    const played = replay(files, order, 6);
    expect(played.mostClockBound).toBe(3);
    // vitest's own order (longest first) would start all six workers on clock-bound files.
    expect(replay(files, [...files].sort((a, b) => b.seconds - a.seconds).map((f) => f.file), 6).mostClockBound).toBe(6);
    // The clock-bound files, 835 s, on three workers: the run ends within their share plus the last ones' tail.
    expect(played.ends).toBeLessThan(835 / 3 + 180);
  });

  it('hands out the other files project by project, so that a worker that keeps its modules gets a file of its project next', () => {
    const grouped = files.map((f, k) => (f.clockBound ? f : { ...f, group: ['store', 'integration', 'security'][k % 3] }));
    const group = new Map(grouped.map((f) => [f.file, f.group]));
    const order = clockAwareOrder(grouped, 6, 3).filter((name) => !name.startsWith('wait-'));
    // Each project's files in one run: as many changes of project as projects, less one.
    const changes = order.filter((name, i) => i > 0 && group.get(name) !== group.get(order[i - 1]!)).length;
    expect(changes).toBe(2);
    // The project of the longest file first, its longest file first.
    const longestOther = grouped.filter((f) => !f.clockBound).sort((a, b) => b.seconds - a.seconds)[0]!;
    expect(order[0]).toBe(longestOther.file);
    expect(replay(grouped, clockAwareOrder(grouped, 6, 3), 6).mostClockBound).toBe(3);
  });

  it('names only files that exist', () => {
    for (const name of [...Object.keys(CLOCK_BOUND_FILES), ...Object.keys(LONG_FILES)]) expect(existsSync(new URL(`../../../${name}`, import.meta.url)), name).toBe(true);
  });
});
