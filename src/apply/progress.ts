import { redactUrl } from '../client/connection.js';
import { describeChange } from '../plan/render/summary.js';
import type { ApplyEvent, ApplyResult } from './run.js';
import type { PlanChange } from '../plan/types.js';
import { SENSITIVE } from '../plan/render/mask.js';

/** The secret values a change carries (its sensitive fields, before and after). */
function secretValuesOf(change: PlanChange): string[] {
  const values: string[] = [];
  const pick = (obj: unknown) => {
    for (const path of change.sensitive) {
      let value: unknown = obj;
      for (const part of path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string' && v.length >= 4) values.push(v);
    }
  };
  if ('after' in change) pick(change.after);
  if ('before' in change) pick(change.before);
  return values;
}

/** An error message as it may be shown: URL credentials and the change's own secret values replaced. */
export function redactError(change: PlanChange, message: string): string {
  let text = redactUrl(message);
  for (const secret of secretValuesOf(change)) text = text.split(secret).join(SENSITIVE);
  return text;
}

/** One line per step as it finishes, e.g. `  ✓ create alert "cpu" (42 ms)`. Secrets in errors are redacted. */
export function renderProgressLine(event: ApplyEvent): string {
  const what = describeChange(event.change);
  switch (event.type) {
    case 'done':
      return `  ✓ ${what} (${event.ms} ms)`;
    case 'failed':
      return `  ✗ ${what}: ${redactError(event.change, event.error.message)}`;
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
    failed: result.failed.map((f) => ({ id: f.change.id, error: redactError(f.change, f.error.message) })),
    skipped: result.skipped.map((s) => ({ id: s.change.id, reason: s.reason })),
  };
}
