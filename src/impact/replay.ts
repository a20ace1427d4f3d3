import type { RenderSeries } from '../graphite/types.js';
import { BUCKET_SECONDS } from '../evaluation/buckets.js';
import { judgeAlert, listCriteria, type CriterionOutcome } from '../evaluation/judge-alert.js';
import { advanceAlert, initialEvalState, type NotificationEvent } from '../evaluation/transitions.js';
import type { AdditionalCriterion, AlertCriteria, ChannelType, NotificationType } from '../model/types.js';
import { createCriterionCursor, prepareSeries, seriesStep, type CriterionCursor } from './criterion-cursor.js';

/** What a replay needs of an alert: the rule and how it notifies (channels by name). */
export interface ReplayableAlert {
  metric: string;
  alert_criteria: AlertCriteria;
  additional_criteria?: Record<string, AdditionalCriterion> | null;
  expression?: string | null;
  notification_type: NotificationType;
  notification_channels: readonly string[];
}

/** What decides whether a channel is sent a notification: PagerDuty and VictorOps resolve only with auto_resolve. */
export interface ChannelInfo {
  type: ChannelType;
  auto_resolve: boolean;
}

export interface ReplayOptions {
  /** The backtest window, unix seconds: evaluations whose data ends inside (start, end]. */
  start: number;
  end: number;
  /** Whether a scheduled mute of the alert is active at an instant (unix seconds). */
  mutedAt?: (at: number) => boolean;
  /** Channels by name; an unknown channel counts every notification. */
  channels?: ReadonlyMap<string, ChannelInfo>;
  /** Told after each evaluation: the step's start, the status then, the series that hold, what was sent. */
  onStep?: (step: { start: number; status: 'healthy' | 'alerting'; triggered: string[]; events: NotificationEvent[] }) => void;
}

/** One alerting episode, unix seconds; `end` null when still alerting at the end of the window. */
export interface Episode {
  start: number;
  end: number | null;
}

/** What an alert would have done over the window. */
export interface ReplayResult {
  /** Seconds between replayed evaluations: 30, or the data's resolution when it is coarser. */
  stepSeconds: number;
  /** Transitions to alerting. */
  fired: number;
  alertingMinutes: number;
  longestEpisodeMinutes: number;
  /** Deliveries per channel name (alerting, reminders, recoveries the channel would actually be sent). */
  notifications: Record<string, number>;
  episodes: Episode[];
}

/**
 * Replays the server's evaluator over a window, one evaluation per step, from a healthy start: the same judging
 * (judgeAlert over each criterion's series), the same state machine (advanceAlert: backoff, reminders, recovery
 * rules) and the same muting as a cycle. `series` maps each criterion's metric to what one render over the whole
 * window (plus look-back) returned. Each step is evaluated as at its last second, once its data is complete.
 */
export function replayAlert(alert: ReplayableAlert, series: ReadonlyMap<string, readonly RenderSeries[]>, options: ReplayOptions): ReplayResult {
  const run = replaySlices(alert, series, options);
  let next = run.next();
  while (!next.done) next = run.next();
  return next.value;
}

/** Steps replayed between two turns of the event loop by replayAlertInSlices (a few ms of work each). */
const STEPS_PER_SLICE = 2_000;

/**
 * The same replay for a server: the event loop is given back (setImmediate) after each series is indexed and
 * after every STEPS_PER_SLICE steps, so a week of a wide wildcard never holds other requests for the
 * whole replay. The result is replayAlert's.
 */
export async function replayAlertInSlices(alert: ReplayableAlert, series: ReadonlyMap<string, readonly RenderSeries[]>, options: ReplayOptions): Promise<ReplayResult> {
  const run = replaySlices(alert, series, options);
  for (let next = run.next(); ; next = run.next()) {
    if (next.done) return next.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The replay, yielding where a server may let other work run. */
function* replaySlices(alert: ReplayableAlert, series: ReadonlyMap<string, readonly RenderSeries[]>, options: ReplayOptions): Generator<void, ReplayResult> {
  const criteria = listCriteria(alert);
  let step = BUCKET_SECONDS;
  for (const criterion of criteria) {
    for (const one of series.get(criterion.metric) ?? []) {
      step = Math.max(step, seriesStep(one) ?? BUCKET_SECONDS);
      if (criterion.criteria.type !== 'missing') prepareSeries(one);
      yield;
    }
  }
  const cursors: CriterionCursor[] = criteria.map((criterion) => createCriterionCursor(criterion, series.get(criterion.metric) ?? []));
  const notifications: Record<string, number> = Object.fromEntries(alert.notification_channels.map((name) => [name, 0]));
  const sends = (event: NotificationEvent, channel: string): boolean => isSentTo(event, options.channels?.get(channel));
  const episodes: Episode[] = [];
  let state = initialEvalState();
  let alertingSteps = 0;
  let lastAt = options.start;
  const first = Math.floor(options.start / step) * step + step;
  // One array for every step: judgeAlert and advanceAlert read the outcomes and keep none of them.
  const outcomes: CriterionOutcome[] = new Array(cursors.length);
  let slice = 0;
  for (let stepStart = first; stepStart + step - 1 <= options.end; stepStart += step) {
    if (++slice === STEPS_PER_SLICE) {
      slice = 0;
      yield;
    }
    const at = stepStart + step - 1;
    lastAt = at;
    let anyHolds = false;
    for (let i = 0; i < cursors.length; i += 1) {
      outcomes[i] = cursors[i]!.judgeAt(at);
      if (outcomes[i]!.state === 'holds') anyHolds = true;
    }
    // Fast path for the common step: a healthy alert none of whose letters holds stays healthy and sends nothing
    // (expressions only use && and ||, so no letter holding means the alert cannot hold).
    if (state.status === 'healthy' && !anyHolds) {
      options.onStep?.({ start: stepStart, status: 'healthy', triggered: [], events: [] });
      continue;
    }
    const judgement = judgeAlert(alert.expression, outcomes);
    const advance = advanceAlert(state, { kind: 'judged', judgement }, {
      now: at,
      notificationType: alert.notification_type,
      muted: options.mutedAt?.(at) ?? false,
      onQueryFailure: null,
      acknowledged: false,
    });
    if (state.status === 'healthy' && advance.state.status === 'alerting') episodes.push({ start: at, end: null });
    if (state.status === 'alerting' && advance.state.status === 'healthy') episodes[episodes.length - 1]!.end = at;
    state = advance.state;
    if (state.status === 'alerting') alertingSteps += 1;
    options.onStep?.({ start: stepStart, status: state.status, triggered: state.triggered.map((t) => t.metric), events: advance.notifications.map((n) => n.event) });
    for (const { event } of advance.notifications) {
      for (const channel of alert.notification_channels) if (sends(event, channel)) notifications[channel] = (notifications[channel] ?? 0) + 1;
    }
  }
  // An episode still open at the end lasts through its last step, as alertingMinutes counts it.
  const longest = episodes.reduce((max, e) => Math.max(max, (e.end ?? lastAt + step) - e.start), 0);
  return {
    stepSeconds: step,
    fired: episodes.length,
    alertingMinutes: round1((alertingSteps * step) / 60),
    longestEpisodeMinutes: round1(longest / 60),
    notifications,
    episodes,
  };
}

/** Whether a channel is sent an event: PagerDuty and VictorOps resolve only with auto_resolve; an unknown channel gets everything. */
export function isSentTo(event: NotificationEvent, info: ChannelInfo | undefined): boolean {
  if (event !== 'recovered' || !info) return true;
  return !((info.type === 'pagerduty' || info.type === 'victorops') && !info.auto_resolve);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
