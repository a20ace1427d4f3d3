import type { Plan, PlanChange } from '../types.js';
import { displayKey, SENSITIVE } from '../../redact/index.js';
import { escapeControls } from './escape.js';

/** `Plan: 2 to create, 1 to update, 1 to mute, 0 to delete.` (unmutes named only when there are some). */
export function renderSummaryLine(plan: Plan): string {
  const s = plan.summary;
  const unmute = s.unmute > 0 ? `, ${s.unmute} to unmute` : '';
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.mute} to mute${unmute}, ${s.delete} to delete.`;
}

/**
 * The one-line title of a change, e.g. `update alert "CPU high"` or `mute alert "x" for 90 minutes`; a name that
 * came from the environment shows as `"(sensitive)"`.
 */
export function describeChange(change: PlanChange): string {
  const what = `${change.action} ${change.kind} "${displayKey(change)}"`;
  if (change.action === 'mute') return `${what} for ${change.minutes} minutes (until ${change.until})`;
  return what;
}

/** A maintenance window's reach, e.g. `would mute 37 alerts: a, b, c…` (the first names, then "…" when there are more). */
export function describeWouldMute(reach: { count: number; alerts: readonly string[] }): string {
  if (reach.count === 0) return 'would mute no alert of these files';
  const more = reach.count > reach.alerts.length ? '…' : '';
  return `would mute ${reach.count} alert${reach.count === 1 ? '' : 's'}: ${reach.alerts.join(', ')}${more}`;
}

export const MARKERS: Record<PlanChange['action'], string> = { create: '+', update: '~', delete: '-', mute: '±', unmute: '±' };

/** A value in a rendering: strings quoted, the rest as JSON (whose escapes leave DEL, C1 and U+2028 as they are: escaped here too). */
export function formatValue(value: unknown): string {
  return value === SENSITIVE ? value : escapeControls(JSON.stringify(value) ?? 'null');
}
