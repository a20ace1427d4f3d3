import { formatProblem } from '../../definitions/problems.js';
import type { Plan, PlanChange } from '../types.js';
import { displayKey, displayStepId, maskObject, maskValue, redactorForPlan } from '../../redact/index.js';
import { renderSummaryLine } from './summary.js';
import { toJsonImpact } from '../../impact/render-impact.js';
import type { MessagePreview } from '../preview.js';
import type { ImpactOutcome } from '../../impact/types.js';
import { shownWithImpact } from './with-impact.js';

/** One change as machines read it, secrets masked. */
export type JsonChange = Record<string, unknown> & { id: string; action: PlanChange['action']; kind: string; key: string };

/** The JSON form of a plan (`formatVersion: 1`): the plan with every secret masked, plus readable lines. */
export interface JsonPlan {
  formatVersion: 1;
  createdAt: string;
  summaryLine: string;
  summary: Plan['summary'];
  hasChanges: boolean;
  changes: JsonChange[];
  warnings: string[];
  problems: (Plan['problems'][number] & { text: string })[];
  unmanaged: Plan['unmanaged'];
  /** The backtest (`plan --impact`): per alert name, fired, alerting_minutes, notifications and `before`. */
  impact?: Record<string, unknown>;
  /** What templated channels will say for the changes: {changeId, channel, type, subject, alert, title, body}. */
  previews?: MessagePreview[];
}

/**
 * A plan as a JSON-ready object, with the same masking as the text and markdown forms: secret fields, and names
 * that came from the environment (in `key`, in step ids and in `dependsOn`). The plan's secret values are then
 * replaced wherever else they appear (an unmanaged object of the same name, a problem's message). With `impact`
 * (the backtest carried beside the plan), its findings join the plan's and the backtest is under `impact`.
 */
export function toJsonPlan(computed: Plan, impact?: ImpactOutcome): JsonPlan {
  const plan = shownWithImpact(computed, impact);
  const ids = new Map(plan.changes.map((c) => [c.id, displayStepId(c)]));
  const json: JsonPlan = {
    formatVersion: 1,
    createdAt: plan.createdAt,
    summaryLine: renderSummaryLine(plan),
    summary: plan.summary,
    hasChanges: plan.changes.length > 0,
    changes: plan.changes.map((change) => toJsonChange(change, ids)),
    warnings: plan.warnings,
    problems: plan.problems.map((p) => ({ ...p, text: formatProblem(p) })),
    unmanaged: plan.unmanaged,
    ...(impact ? { impact: toJsonImpact(impact.impact) } : {}),
    ...(plan.previews ? { previews: plan.previews.map((p) => ({ ...p, changeId: ids.get(p.changeId) ?? p.changeId })) } : {}),
  };
  return redactorForPlan(plan).redactDeep(json);
}

function toJsonChange(change: PlanChange, ids: ReadonlyMap<string, string>): JsonChange {
  const out: JsonChange = {
    id: ids.get(change.id) ?? change.id,
    action: change.action,
    kind: change.kind,
    key: displayKey(change),
    dependsOn: change.dependsOn.map((id) => ids.get(id) ?? id),
  };
  if (change.source) out.source = change.source;
  if ('remoteId' in change && change.remoteId) out.remoteId = change.remoteId;
  if (change.action === 'update' || change.action === 'delete') out.before = maskObject(change, change.before);
  if (change.action === 'update' || change.action === 'create') out.after = maskObject(change, change.after);
  if (change.action === 'update') {
    out.diffs = change.diffs.map((d) => ({ path: d.path, ...(d.before !== undefined ? { before: maskValue(change, d.path, d.before) } : {}), ...(d.after !== undefined ? { after: maskValue(change, d.path, d.after) } : {}) }));
  }
  if (change.action === 'mute') {
    out.minutes = change.minutes;
    out.until = change.until;
    if (change.remainingBefore !== undefined) out.remainingBefore = change.remainingBefore;
  }
  if (change.wouldMute) out.wouldMute = change.wouldMute;
  if (change.sensitive.length > 0) out.sensitive = change.sensitive;
  return out;
}

/** The JSON text of a plan, stable and indented. */
export function renderPlanJson(plan: Plan, impact?: ImpactOutcome): string {
  return `${JSON.stringify(toJsonPlan(plan, impact), null, 2)}\n`;
}
