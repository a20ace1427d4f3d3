import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { statTimesMs } from './proc-cpu.js';

/**
 * Which test files cost the run its CPU: with ALERTFORM_TEST_FILE_CPU=FILE, each file appends a line to FILE as it
 * ends: its core-seconds in all, those of its worker, those of the child processes it started and saw end (servers,
 * CLIs, Graphite, chromium, npm), its wall seconds, its path and its worker's pid (a worker's first file also pays
 * for the imports the next ones reuse), tab-separated (`sort -rn FILE | head` lists the dearest). The run's shared
 * PostgreSQL cluster is not in it: its backends are the cluster's children (scripts/cpu-by-process.mjs counts them).
 * Files of one worker run one after another, so each line is the file's own. Without the variable this does nothing.
 */
const target = process.env.ALERTFORM_TEST_FILE_CPU;

/** This process's own and its ended children's CPU seconds. */
function cpuSeconds(): { self: number; children: number } {
  const { ownMs, childrenMs } = statTimesMs('/proc/self/stat');
  return { self: ownMs / 1000, children: childrenMs / 1000 };
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
