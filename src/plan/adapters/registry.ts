import type { ResourceKind } from '../../definitions/definitions.js';
import type { ActualState } from '../state.js';
import type { KindTypes } from '../types.js';
import type { AdapterOf } from './adapter.js';
import { alertAdapter } from './alert.js';
import { channelAdapter } from './channel.js';
import { scheduleAdapter } from './schedule.js';
import { maintenanceWindowAdapter } from './maintenance-window.js';

/** The adapter of each kind, each typed with its own kind's types. */
const ADAPTERS: { [K in ResourceKind]: AdapterOf<K> } = {
  schedule: scheduleAdapter,
  channel: channelAdapter,
  alert: alertAdapter,
  'maintenance window': maintenanceWindowAdapter,
};

/** The adapter of one kind: everything the planner, saved plans and apply do per kind goes through it. */
export function adapterFor<K extends ResourceKind>(kind: K): AdapterOf<K> {
  return ADAPTERS[kind];
}

/** The server's objects of one kind, as read. */
export function readsOf<K extends ResourceKind>(actual: ActualState, kind: K): readonly KindTypes[K]['read'][] {
  const reads: { [P in ResourceKind]: readonly KindTypes[P]['read'][] } = {
    schedule: actual.schedules,
    channel: actual.channels,
    alert: actual.alerts,
    'maintenance window': actual.maintenanceWindows ?? [],
  };
  return reads[kind];
}
