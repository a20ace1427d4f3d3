import { redactUrl } from '../client/connection.js';
import { describeChange } from '../plan/render/summary.js';
import type { ApplyEvent, ApplyResult } from './run.js';

/** One line per step as it finishes, e.g. `  ✓ create alert "cpu" (42 ms)`. Credentials in URLs are redacted. */
export function renderProgressLine(event: ApplyEvent): string {
  const what = describeChange(event.change);
  switch (event.type) {
    case 'done':
      return `  ✓ ${what} (${event.ms} ms)`;
    case 'failed':
      return `  ✗ ${what}: ${redactUrl(event.error.message)}`;
    case 'skipped':
      return `  - skipped ${what}: ${event.reason}`;
  }
}

/** `Apply: 3 done, 1 failed, 2 skipped.` */
export function renderApplySummary(result: ApplyResult): string {
  return `Apply: ${result.done.length} done, ${result.failed.length} failed, ${result.skipped.length} skipped.`;
}

/** The outcome as JSON-ready data: step ids, and errors without credentials. */
export function applyResultJson(result: ApplyResult): { done: string[]; failed: { id: string; error: string }[]; skipped: { id: string; reason: string }[] } {
  return {
    done: result.done.map((c) => c.id),
    failed: result.failed.map((f) => ({ id: f.change.id, error: redactUrl(f.error.message) })),
    skipped: result.skipped.map((s) => ({ id: s.change.id, reason: s.reason })),
  };
}
