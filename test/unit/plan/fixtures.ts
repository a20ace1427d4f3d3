import { loadDefinitions } from '../../../src/definitions/load.js';
import type { Definitions } from '../../../src/definitions/definitions.js';
import type { AlertRead, ChannelRead, ScheduleRead } from '../../../src/model/types.js';
import { emptyActualState, type ActualState } from '../../../src/plan/state.js';

/** Definitions from YAML text; fails the test on any problem so fixtures stay valid. */
export function definitionsOf(yaml: string, env: Record<string, string> = {}): Definitions {
  const result = loadDefinitions([{ path: 'defs.yaml', text: yaml }], { env });
  if (result.problems.length > 0) throw new Error(`fixture has problems: ${JSON.stringify(result.problems)}`);
  return result.definitions;
}

export function alertRead(fields: Partial<AlertRead> & { id: string; name: string }): AlertRead {
  return {
    metric: 'a.b.c',
    alert_criteria: { type: 'above', above_value: 1 },
    additional_criteria: {},
    expression: 'a',
    notification_channels: ['ch-email'],
    notification_type: ['every', 60],
    scheduled_mutes: [],
    currently_triggered_metrics: [],
    muted: false,
    status: 'healthy',
    info: null,
    on_query_failure: null,
    ...fields,
  };
}

export function channelRead(fields: Partial<ChannelRead> & { id: string; description: string }): ChannelRead {
  return { type: 'email', destination: 'ops@example.com', auto_resolve: false, ...fields };
}

export function scheduleRead(fields: Partial<ScheduleRead> & { id: string; name: string }): ScheduleRead {
  return { start_time: '02:00', duration: 60, timezone: 'UTC', repeat: [], alerts: [], ...fields };
}

/** A server state with the default `Email me` channel (id ch-email) plus what is given. */
export function stateOf(parts: Partial<ActualState> = {}): ActualState {
  const base = emptyActualState();
  return {
    ...base,
    ...parts,
    channels: [channelRead({ id: 'ch-email', description: 'Email me' }), ...(parts.channels ?? [])],
  };
}

export const NOW = new Date('2026-03-01T12:00:00Z');
