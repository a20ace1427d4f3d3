import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the suite's files slowest first, across all projects: the few files that wait on Graphite's buckets and
 * replicas' leases (one to three minutes each) start at once and overlap everything else, instead of starting late
 * and making the run's tail (vitest's own order is project by project, and on a fresh clone it has no timings).
 * A file's time is this machine's last run (vitest's cache) when it has one, else test/file-durations.json (the
 * committed timings; `npm run test:durations` refreshes them), and a file in neither goes first (it may be slow).
 */
export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const committed = readCommittedDurations(new URL('../file-durations.json', import.meta.url));
    const secondsOf = (spec: TestSpecification): number => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec);
      if (cached && !cached.failed) return cached.duration / 1000;
      return committed[relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    };
    const seconds = new Map(files.map((spec) => [spec, secondsOf(spec)]));
    return [...files].sort((a, b) => seconds.get(b)! - seconds.get(a)!);
  }
}

function readCommittedDurations(file: URL): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
