import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

/**
 * Which test files cost the run its CPU: with ALERTFORM_TEST_FILE_CPU=FILE, each file appends a line to FILE as it
 * ends: its core-seconds in all, those of its worker, those of the child processes it started and saw end (servers,
 * CLIs, Graphite, chromium, npm), its wall seconds and its path, tab-separated (`sort -rn FILE | head` lists the
 * dearest), then the worker's pid (a worker's first file also pays for the imports the next ones reuse). The run's shared PostgreSQL cluster is not in it: its backends are the cluster's children
 * (scripts/cpu-by-process.mjs counts them). Files of one worker run one after another, so each line is the file's
 * own. Without the variable this does nothing.
 */
const target = process.env.ALERTFORM_TEST_FILE_CPU;

/** The process's own and its ended children's CPU seconds, from /proc/self/stat (utime, stime, cutime, cstime). */
function cpuSeconds(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces; utime is the 14th field of all.
  const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number) as [number, number, number, number];
  const TICKS_PER_SECOND = 100; // Linux's USER_HZ on every architecture node runs on
  return { self: (utime + stime) / TICKS_PER_SECOND, children: (cutime + cstime) / TICKS_PER_SECOND };
}

if (target) {
  // Read as the setup file runs, before the test file is imported (vitest runs setup files again for each file): a
  // file's imports are its own cost.
  const start = cpuSeconds();
  const startedAt = performance.now();
  let file = '';
  beforeAll(() => {
    file = relative(process.cwd(), expect.getState().testPath ?? '');
  });
  afterAll(() => {
    const end = cpuSeconds();
    const self = end.self - start.self;
    const children = end.children - start.children;
    const wall = (performance.now() - startedAt) / 1000;
    appendFileSync(target, `${[self + children, self, children, wall].map((s) => s.toFixed(2)).join('\t')}\t${file}\t${process.pid}\n`);
  });
}
