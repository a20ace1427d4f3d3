#!/usr/bin/env node
// Runs a command and prints the CPU that every process of the machine spent meanwhile, by kind (vitest's workers,
// `alertform serve`, CLI runs, PostgreSQL's backends, chromium, carbon, graphite-web...): where a test run's
// core-seconds go, which scripts/machine-cpu.sh only totals. A process's CPU comes from the kernel's process
// accounting (a record per process as it exits, children that lived a millisecond included); its command line, which
// the record lacks, from /proc, read every 150 ms in its first second (past its exec: a process caught between its
// fork and its exec shows its parent's).
// Needs root and Debian's `acct` package (accton, dump-acct).
// Usage: sudo node scripts/cpu-by-process.mjs [--top N] [--dump FILE] -- npx vitest run --project store
//   --dump FILE  also writes every process as a line (seconds, pid, parent pid, kind, command line, page faults;
//                tab-separated)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const split = args.indexOf('--');
if (split < 0 || split === args.length - 1) {
  console.error('usage: sudo node scripts/cpu-by-process.mjs [--top N] [--dump FILE] -- COMMAND [ARGS...]');
  process.exit(2);
}
const options = args.slice(0, split);
/** The word after `name` among the options; undefined without it. */
const optionValue = (name) => (options.includes(name) ? options[options.indexOf(name) + 1] : undefined);
const top = Number(optionValue('--top')) || 30;
const dump = optionValue('--dump');
if (options.includes('--dump') && !dump) {
  console.error('--dump needs a file to write to');
  process.exit(2);
}
const [command, ...commandArgs] = args.slice(split + 1);

const dir = mkdtempSync(join(tmpdir(), 'cpu-by-process-'));
const ledger = join(dir, 'pacct');
writeFileSync(ledger, '');
execFileSync('accton', [ledger], { stdio: 'ignore' });

/** The machine's boot, in Unix seconds: a process's start in /proc counts from it. */
const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))[1]);
/**
 * `pid@start second` -> command line, for every process seen alive. Pids are reused (they wrap at 32768 on many
 * machines, within a run of thousands of processes): the start tells apart the processes that had one pid, as
 * the accounting record says when each began.
 */
const names = new Map();
/** When each process was first seen, by the same key. */
const firstSeen = new Map();
/** How long a process's command line is read again: past its exec (one seen between its fork and its exec shows its parent's). */
const SETTLE_MS = 1_000;
/** pid -> its process's key, as of the last sample: a settled process alive then is not read again. */
let lastKeys = new Map();
const sample = () => {
  const now = Date.now();
  const keys = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const known = lastKeys.get(pid);
    if (known !== undefined && now - firstSeen.get(known) > SETTLE_MS) {
      keys.set(pid, known);
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // starttime, the 22nd field, in the kernel's 100 Hz ticks since boot (after the parenthesised name).
      const started = bootSeconds + Math.floor(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) / 100);
      const key = `${pid}@${started}`;
      keys.set(pid, key);
      if (!firstSeen.has(key)) firstSeen.set(key, now);
      if (now - firstSeen.get(key) > SETTLE_MS) continue;
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (line) names.set(key, line);
    } catch {
      // Gone already: the accounting record still counts it, by its short name.
    }
  }
  lastKeys = keys;
};
/**
 * The command line of the process an accounting record is of: the life of its pid that began nearest the record's
 * start (the kernel's two clocks for it, boot time plus ticks and the record's date, differ by a second or two).
 */
const nameOf = (pid, startedText) => {
  const started = Math.floor(Date.parse(startedText) / 1000);
  for (const offset of [0, -1, 1, -2, 2, -3, 3]) {
    const name = names.get(`${pid}@${started + offset}`);
    if (name !== undefined) return name;
  }
  return undefined;
};
const sampler = setInterval(sample, 150);

// Accounting goes off whatever becomes of the command (one that cannot start included): it is the machine's, not ours.
const code = await new Promise((resolve) => {
  const child = spawn(command, commandArgs, { stdio: 'inherit' });
  child.on('error', (error) => {
    console.error(`${command}: ${error.message}`);
    resolve(127);
  });
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
});
clearInterval(sampler);
execFileSync('accton', ['off'], { stdio: 'ignore' });

/** What a process was, from its command line (or its accounting name when it lived too briefly to be seen). */
function kindOf(comm, line = '') {
  if (/vitest\/dist\/workers/.test(line)) return 'vitest worker';
  if (/vitest/.test(line)) return 'vitest (main, npm exec)';
  if (/cli\/main\.js serve|alertform serve/.test(line)) return 'alertform serve';
  if (/cli\/main\.js|bin\/alertform/.test(line)) return 'alertform CLI';
  if (/carbon-cache/.test(line)) return 'carbon-cache';
  if (/carbon-relay|carbon-c-relay/.test(line)) return 'carbon relay';
  if (/graphite-manage/.test(line)) return 'graphite-web';
  if (comm === 'postgres' || /postgres/.test(line)) return 'PostgreSQL';
  if (/chrom/.test(comm) || /chromium/.test(line)) return 'chromium';
  if (/npm/.test(line)) return 'npm';
  if (/typescript|tsc/.test(line)) return 'tsc';
  return comm.startsWith('node') ? 'node (other)' : comm;
}

/**
 * Each record's minor page faults, in the ledger's order: dump-acct does not print them. The kernel writes
 * `struct acct_v3` records of 64 bytes, the faults a comp_t (13-bit mantissa, 3-bit base-8 exponent) at byte 42.
 */
const ledgerBytes = readFileSync(ledger);
const faultsOf = (index) => {
  const offset = index * 64;
  if (offset + 64 > ledgerBytes.length || ledgerBytes[offset + 1] !== 3) return 0;
  const comp = ledgerBytes.readUInt16LE(offset + 42);
  return (comp & 0x1fff) * 8 ** (comp >> 13);
};

const kinds = new Map();
const lines = [];
let total = 0;
let totalFaults = 0;
let index = 0;
// dump-acct: comm|version|user|system|elapsed|uid|gid|mem|io|pid|ppid|...|start (times in the kernel's 100 Hz ticks,
// the start as a local date to the second).
for (const record of execFileSync('dump-acct', [ledger], { maxBuffer: 1 << 30 }).toString().trim().split('\n')) {
  const fields = record.split('|').map((field) => field.trim());
  const faults = faultsOf(index++);
  if (fields.length < 11) continue;
  const seconds = (Number(fields[2]) + Number(fields[3])) / 100;
  const name = nameOf(fields[9], fields.at(-1));
  const kind = kindOf(fields[0], name);
  if (dump) lines.push([seconds.toFixed(2), fields[9], fields[10], kind, name ?? fields[0], faults].join('\t'));
  const entry = kinds.get(kind) ?? { seconds: 0, processes: 0, faults: 0 };
  entry.seconds += seconds;
  entry.processes += 1;
  entry.faults += faults;
  kinds.set(kind, entry);
  total += seconds;
  totalFaults += faults;
}
rmSync(dir, { recursive: true, force: true });
if (dump) writeFileSync(dump, lines.join('\n') + '\n');

const rows = [...kinds].sort((a, b) => b[1].seconds - a[1].seconds).slice(0, top);
console.error(
  `\nCPU by process kind (${total.toFixed(0)} core-seconds and ${(totalFaults / 1e6).toFixed(1)} million page faults in processes that ended; daemons still running are not counted):`,
);
for (const [kind, { seconds, processes, faults }] of rows) {
  console.error(`${seconds.toFixed(1).padStart(9)} s ${(faults / 1e3).toFixed(0).padStart(7)}k faults ${String(processes).padStart(6)} processes  ${kind}`);
}
process.exit(code);
