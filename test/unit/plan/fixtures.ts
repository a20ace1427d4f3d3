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

/** As stateOf, but as alertform's own server answers: its channels carry the extensions (`null` when unused). */
export function alertformStateOf(parts: Partial<ActualState> = {}): ActualState {
  const state = stateOf(parts);
  return { ...state, channels: state.channels.map((channel) => ({ throttle: null, template: null, ...channel })) };
}

export const NOW = new Date('2026-03-01T12:00:00Z');

/** The definitions of the golden renderings (test/golden), with the environment they read. */
export const GOLDEN_DEFINITIONS = {
  env: { PD_KEY: 'sk-live-GOLDEN-SECRET-123' },
  yaml: `
schedules:
  - {name: team-nightly, start_time: "02:00", duration: 30, repeat: [mon, tue]}
channels:
  - {description: team-pager, type: pagerduty, destination: "\${PD_KEY}", auto_resolve: true}
  - {description: team-mail, type: email, destination: team@example.com}
alerts:
  - name: team-api-errors
    metric: sumSeries(api.*.errors)
    alert_criteria: {type: above, above_value: 10, time_period: 5}
    notification_channels: [team-pager]
    scheduled_mutes: [team-nightly]
    muted: {until: "2026-03-01T13:30:00Z"}
  - name: team-latency
    metric: api.latency.p99
    alert_criteria: {type: above, above_value: 900}
    notification_channels: [team-mail]
    info: "p99 latency is above 900 ms; check the database connection pool and the last deploy before paging"
  - name: team-disk
    metric: hosts.*.disk
    alert_criteria: {type: above, above_value: 90}
    notification_channels: [team-mail]
    muted: false
`,
};

/**
 * Every way of writing a value that has one normal form (the spellings the planner's and the server's rules must
 * agree on): letters and expressions in any case, empty time_periods, every notification_type form, timezone
 * spellings, repeat order, on_query_failure left to its default, white space around a destination.
 */
export const NORMAL_FORM_DEFINITIONS = `
schedules:
  - {name: tz-padded, start_time: "02:00", duration: 60, timezone: "UTC+02:00", repeat: [fri, mon]}
  - {name: tz-half, start_time: "23:30", duration: 90, timezone: "UTC-05:30"}
  - {name: tz-zero, start_time: "00:00", duration: 10, timezone: "UTC+0", repeat: [sun, sat]}
  - {name: tz-none, start_time: "12:00", duration: 1440}
channels:
  - {description: pager, type: pagerduty, destination: key-1}
  - {description: spaced mail, type: email, destination: " ops@example.com "}
  - {description: vo, type: victorops, destination: "https://alert.victorops.com/x", auto_resolve: false}
  - {description: hook, type: webhook, destination: "https://hooks.example.com/a"}
alerts:
  - name: three-letters
    metric: shop.cpu
    alert_criteria: {type: above, above_value: 80, time_period: ""}
    additional_criteria:
      B: {type: below, below_value: 10, metric: shop.rps, time_period: null}
      c: {type: missing, time_period: 5, metric: "sumSeries(x.*)"}
    expression: "A&&(b||C)"
    notification_type: [state_change]
    notification_channels: [pager, hook, pager]
  - {name: string-state, metric: m, alert_criteria: {type: below, below_value: 0}, notification_type: state_change}
  - {name: every-5, metric: m, alert_criteria: {type: outside_bounds, below_value: -1, above_value: 1}, notification_type: [every, 5]}
  - {name: empty-type, metric: m, alert_criteria: {type: above, above_value: 1, time_period: 3}, notification_type: []}
  - {name: function-default, metric: "sumSeries(a.*)", alert_criteria: {type: above, above_value: 1}}
  - {name: function-ignore, metric: "alias (a.b, 'x')", alert_criteria: {type: above, above_value: 1}, on_query_failure: ignore}
  - {name: function-null, metric: "maxSeries(a.*)", alert_criteria: {type: above, above_value: 1}, on_query_failure: null}
  - {name: plain-null, metric: "a.*", alert_criteria: {type: above, above_value: 1}, on_query_failure: null, info: ""}
  - name: muted-and-scheduled
    metric: q.r
    alert_criteria: {type: missing, time_period: 10}
    scheduled_mutes: [tz-zero, tz-padded]
    notification_channels: [spaced mail, Email me]
    info: "runbook: https://runbooks.example.com/q"
`;
