import type { PlannedRun } from '../../../src/action/port.js';
import type { ResourceKind } from '../../../src/definitions/definitions.js';
import type { CanonicalAlert, CanonicalOf, Plan, PlanChange, ResourceChange } from '../../../src/plan/types.js';

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
    pagerduty_severity: null,
    opsgenie_priority: null,
    on_no_data: null,
  };
}

const RESOURCES: { [K in ResourceKind]: (name: string, above: number) => CanonicalOf<K> } = {
  channel: (name) => ({ description: name, type: 'email', destination: 'ops@example.com', auto_resolve: false, template: null }),
  schedule: (name) => ({ name, start_time: '02:00', duration: 30, timezone: 'UTC', repeat: [] }),
  alert: alertNamed,
  'maintenance window': (name) => ({ name, reason: null, match: { alert_names: ['*'] }, starts_at: null, start_time: '02:00', repeat: ['sun'], timezone: 'UTC', duration: 60 }),
};

function resourceNamed<K extends ResourceKind>(kind: K, name: string, above = 250): CanonicalOf<K> {
  return RESOURCES[kind](name, above);
}

/** A create, update or delete of one kind, typed by that kind. */
function writeOf<K extends ResourceKind>(kind: K, spec: ChangeSpec, index: number, base: Omit<ResourceChange<K>, 'kind' | 'action' | 'before' | 'after' | 'remoteId' | 'diffs'>): ResourceChange<K> {
  switch (spec.action) {
    case 'create':
      return { ...base, kind, action: 'create', after: resourceNamed(kind, spec.name) } as ResourceChange<K>;
    case 'update':
      return {
        ...base,
        kind,
        action: 'update',
        remoteId: `id-${index}`,
        before: resourceNamed(kind, spec.name, 200),
        after: resourceNamed(kind, spec.name),
        diffs: [{ path: 'alert_criteria.above_value', before: 200, after: 250 }],
      } as ResourceChange<K>;
    default:
      return { ...base, kind, action: 'delete', remoteId: `id-${index}`, before: resourceNamed(kind, spec.name) } as ResourceChange<K>;
  }
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
    case 'update':
    case 'delete':
      return spec.kind === 'alert' ? writeOf('alert', spec, index, base) : spec.kind === 'channel' ? writeOf('channel', spec, index, base) : writeOf('schedule', spec, index, base);
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
