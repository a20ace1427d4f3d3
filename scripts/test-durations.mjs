#!/usr/bin/env node
// Writes test/file-durations.json (each test file's seconds, the order the suite runs its files in; see
// test/helpers/slowest-first-sequencer.ts) from a vitest JSON report, or runs the suite for one first.
//   node scripts/test-durations.mjs [report.json]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let report = process.argv[2];
if (!report) {
  report = join(mkdtempSync(join(tmpdir(), 'af-durations-')), 'report.json');
  execFileSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: root, stdio: 'inherit' });
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const durations = Object.fromEntries(
  testResults
    .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(join(root, 'test', 'file-durations.json'), `${JSON.stringify(durations, null, 1)}\n`);
process.stdout.write(`${Object.keys(durations).length} files written to test/file-durations.json\n`);
