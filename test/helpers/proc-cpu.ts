import { readFileSync } from 'node:fs';

/**
 * CPU times (user + system, ms) from a /proc stat file (Linux; clock ticks of 10 ms, the kernel's USER_HZ of 100):
 * `/proc/<pid>/stat` for a process, `/proc/<pid>/task/<tid>/stat` for one of its threads. `childrenMs` is what its
 * ended and waited-for children spent.
 */
export function statTimesMs(path: string): { ownMs: number; childrenMs: number } {
  const stat = readFileSync(path, 'utf8');
  // Fields after the command name (which may hold spaces): state is the first, then utime, stime, cutime and cstime
  // are the 12th to the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [number, number, number, number];
  return { ownMs: (utime + stime) * 10, childrenMs: (cutime + cstime) * 10 };
}

/** The CPU time so far (user + system, ms) of the process or thread of a /proc stat file. */
export function statCpuMs(path: string): number {
  return statTimesMs(path).ownMs;
}

/**
 * The CPU time of a process's main thread so far, ms: what a served child's event loop spent while a request to it
 * waited, which a busy machine does not stretch as it does the clock (event-loop-lag.ts).
 */
export function processThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}
