import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) from a /proc stat file (Linux; clock ticks of 10 ms, the kernel's USER_HZ of 100):
 * `/proc/<pid>/stat` for a process, `/proc/<pid>/task/<tid>/stat` for one of its threads.
 */
export function statCpuMs(path: string): number {
  const stat = readFileSync(path, 'utf8');
  // Fields after the command name (which may hold spaces): state is the first, utime the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The CPU time of a process's main thread so far, ms: what a served child's event loop spent while a request to it
 * waited, which a busy machine does not stretch as it does the clock (event-loop-lag.ts).
 */
export function processThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}
