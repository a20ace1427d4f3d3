import { describeChange } from '../plan/render/summary.js';
import type { ApplyEvent, ApplyResult } from './run.js';
import type { PlanChange } from '../plan/types.js';
import { displayStepId, redactorForChange } from '../redact/index.js';

/** An error message as it may be shown: URL credentials and the change's own secret values (its name too) replaced. */
export function redactError(change: PlanChange, message: string): string {
  return redactorForChange(change).redact(message);
}

/**
 * One line per step as it finishes, e.g. `  ✓ create alert "cpu" (42 ms)`, or with its place among all the steps,
 * `  [3/12] ✓ create alert "cpu" (42 ms)`. Secrets in errors are redacted.
 */
export function renderProgressLine(event: ApplyEvent, position?: { n: number; total: number }): string {
  switch (event.type) {
    case 'done':
      return `  ${mark(position, '✓')}${describeChange(event.change)} (${event.ms} ms)`;
    case 'failed':
      return `  ${mark(position, '✗')}${describeChange(event.change)}: ${redactError(event.change, event.error.message)}`;
    case 'skipped':
      return `  ${mark(position, '-')}skipped ${describeChange(event.change)}: ${event.reason}`;
  }
}

/** `[ 3/12] ✓ ` with a position, `✓ ` without. */
function mark(position: { n: number; total: number } | undefined, symbol: string): string {
  return position ? `[${String(position.n).padStart(String(position.total).length)}/${position.total}] ${symbol} ` : `${symbol} `;
}

/** `Apply: 3 done, 1 failed, 2 skipped.` */
export function renderApplySummary(result: ApplyResult): string {
  return `Apply: ${result.done.length} done, ${result.failed.length} failed, ${result.skipped.length} skipped.`;
}

/** The outcome as JSON-ready data: printable step ids, and errors without credentials or the change's secrets. */
export function applyResultJson(result: ApplyResult): { done: string[]; failed: { id: string; error: string }[]; skipped: { id: string; reason: string }[] } {
  return {
    done: result.done.map((c) => displayStepId(c)),
    failed: result.failed.map((f) => ({ id: displayStepId(f.change), error: redactError(f.change, f.error.message) })),
    skipped: result.skipped.map((s) => ({ id: displayStepId(s.change), reason: s.reason })),
  };
}
