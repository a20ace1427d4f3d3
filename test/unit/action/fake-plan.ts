import type { PlannedRun } from '../../../src/action/port.js';
import type { CanonicalAlert, CanonicalChannel, CanonicalSchedule, Plan, PlanChange } from '../../../src/plan/types.js';

/** One change of a stand-in plan: what the GitHub side reads (action, kind, name, source file). */
export interface ChangeSpec {
  action: PlanChange['action'];
  kind: PlanChange['kind'];
  name: string;
  file?: string;
}

function alertNamed(name: string, above: number): CanonicalAlert {
  return {
    name,
    metric: `prod.${name}.p99`,
    alert_criteria: { type: 'above', above_value: above },
    additional_criteria: {},
    expression: 'a',
    notification_channels: [],
    notification_type: ['every', 60],
    scheduled_mutes: [],
    info: '',
    on_query_failure: 'notify',
  };
}

function resourceNamed(kind: PlanChange['kind'], name: string, above = 250): CanonicalAlert | CanonicalChannel | CanonicalSchedule {
  if (kind === 'channel') return { description: name, type: 'email', destination: 'ops@example.com', auto_resolve: false };
  if (kind === 'schedule') return { name, start_time: '02:00', duration: 30, timezone: 'UTC', repeat: [] };
  return alertNamed(name, above);
}

function changeOf(spec: ChangeSpec, index: number): PlanChange {
  const base = {
    id: `${spec.kind}:${spec.name}:${spec.action}`,
    key: spec.name,
    dependsOn: [],
    sensitive: [],
    ...(spec.file ? { source: { file: spec.file, line: index + 2, column: 5 } } : {}),
  };
  switch (spec.action) {
    case 'create':
      return { ...base, kind: spec.kind, action: 'create', after: resourceNamed(spec.kind, spec.name) };
    case 'update':
      return {
        ...base,
        kind: spec.kind,
        action: 'update',
        remoteId: `id-${index}`,
        before: resourceNamed(spec.kind, spec.name, 200),
        after: resourceNamed(spec.kind, spec.name),
        diffs: [{ path: 'alert_criteria.above_value', before: 200, after: 250 }],
      };
    case 'delete':
      return { ...base, kind: spec.kind, action: 'delete', remoteId: `id-${index}`, before: resourceNamed(spec.kind, spec.name) };
    case 'mute':
      return { ...base, kind: 'alert', action: 'mute', remoteId: `id-${index}`, minutes: 60, until: '2026-03-01T13:00:00.000Z' };
    case 'unmute':
      return { ...base, kind: 'alert', action: 'unmute', remoteId: `id-${index}` };
  }
}

/** A Plan with these changes, as the reconciler would compute it. */
export function planOf(specs: ChangeSpec[]): Plan {
  const changes = specs.map(changeOf);
  const count = (action: PlanChange['action']) => changes.filter((c) => c.action === action).length;
  return {
    formatVersion: 1,
    createdAt: '2026-03-01T12:00:00.000Z',
    changes,
    summary: { create: count('create'), update: count('update'), mute: count('mute'), unmute: count('unmute'), delete: count('delete'), noOp: 0, unmanaged: 0 },
    warnings: [],
    problems: [],
    unmanaged: [],
  };
}

/** A stand-in planned run whose apply succeeds and counts its calls in `applied`. */
export function fakeRun(specs: ChangeSpec[], hash = 'h1', onApply: () => void = () => {}): PlannedRun {
  return {
    status: 'planned',
    plan: planOf(specs),
    hash,
    apply: async () => {
      onApply();
      return { ok: true, done: specs.length, failed: 0, skipped: 0, report: `${specs.length} done` };
    },
  };
}
