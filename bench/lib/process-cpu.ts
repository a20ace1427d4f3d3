import { statCpuMs } from '../../test/helpers/proc-cpu.js';
import type { LoadResult } from './load-test.js';

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux; clock ticks of 10 ms, the
 * kernel's USER_HZ of 100), or null where there is no /proc. Contention from other processes changes a run's
 * throughput far more than the CPU the server spends per request, so the benchmarks print both.
 */
export function processCpuMs(pid: number): number | null {
  try {
    return statCpuMs(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
}

/** The CPU time a process spends per request, summed over the runs measured. */
export class CpuPerRequest {
  private ms = 0;
  private requests = 0;
  private known = true;

  constructor(private readonly pid: number) {}

  async measure(run: () => Promise<LoadResult>): Promise<LoadResult> {
    const before = processCpuMs(this.pid);
    const result = await run();
    const after = processCpuMs(this.pid);
    if (before === null || after === null) this.known = false;
    else this.ms += after - before;
    this.requests += result.total;
    return result;
  }

  perRequest(): number | null {
    return this.known && this.requests > 0 ? (this.ms * 1000) / this.requests : null;
  }

  microseconds(): string {
    const value = this.perRequest();
    return value === null ? '-' : value.toFixed(1);
  }

  /** How the other's CPU per request compares to this one's (1 = the same; higher: this one spends less). */
  ratioTo(other: CpuPerRequest): string {
    const mine = this.perRequest();
    const theirs = other.perRequest();
    return mine === null || theirs === null || mine === 0 ? '-' : `${Math.round((theirs / mine) * 100)}%`;
  }
}
