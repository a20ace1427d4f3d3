import { heldBy, type DependencyEdge } from '../evaluation/dependencies.js';
import { groupKey } from '../evaluation/grouping.js';
import type { NotificationEvent } from '../evaluation/transitions.js';
import type { CanonicalGroupBy } from '../model/canonical.js';

/**
 * The backtest of noise control: the notifications the replays would have sent, counted as messages without and with
 * dependencies (a child's new notifications held while a parent alerts, its resolve only when its alerting went out)
 * and grouping by path (a channel's notifications of one group key merged into one message per wait, then per
 * interval). Pure: the replays (replay.ts) record timelines, this counts them.
 */

/** What one replayed alert did, as the count reads it (unix seconds, in order). */
export interface AlertTimeline {
  /** Each change of its alerting series: `triggered` null when it turned healthy. */
  states: { at: number; triggered: string[] | null }[];
  /** Each step that sent something: the series alerting then, and the channels each event was sent to. */
  sends: { at: number; triggered: string[]; events: { event: NotificationEvent; channels: string[] }[] }[];
}

/** Records an AlertTimeline from replayAlert's `onStep` (the channels an event goes to decided by `channelsFor`). */
export function timelineRecorder(channelsFor: (event: NotificationEvent) => string[]): {
  timeline: AlertTimeline;
  onStep: (step: { start: number; status: 'healthy' | 'alerting'; triggered: string[]; events: NotificationEvent[] }) => void;
} {
  const timeline: AlertTimeline = { states: [], sends: [] };
  let last = '';
  return {
    timeline,
    onStep: ({ start, status, triggered, events }) => {
      const now = status === 'alerting' ? triggered : null;
      const key = now === null ? '' : `+${now.join('\u0000')}`;
      if (key !== last) timeline.states.push({ at: start, triggered: now });
      last = key;
      if (events.length > 0) timeline.sends.push({ at: start, triggered, events: events.map((event) => ({ event, channels: channelsFor(event) })) });
    },
  };
}

export interface NoiseInput {
  /** The alerts whose messages are counted, by name. */
  counted: ReadonlyMap<string, AlertTimeline>;
  /** Every replayed alert by name: the parents are looked up here (a parent not replayed never holds). */
  replayed: ReadonlyMap<string, AlertTimeline>;
  /** A child's parents, `alertId` being the parent's name. */
  dependsOn: ReadonlyMap<string, readonly DependencyEdge[]>;
  /** Channels that group, by name. */
  groupBy: ReadonlyMap<string, CanonicalGroupBy>;
}

/** Messages without and with noise control; `held` of the notifications were held back by dependencies. */
export interface NoiseCount {
  without: number;
  with: number;
  held: number;
}

/** Events a parent holds back; a resolve follows its alerting, and the rest (query failures) are not an outage's echo. */
const HOLDABLE: ReadonlySet<NotificationEvent> = new Set(['alerting', 'reminder', 'no_data']);

export function countMessages(input: NoiseInput): NoiseCount {
  let without = 0;
  let held = 0;
  // Notifications that leave, per channel: when, and the series that says its group.
  const members = new Map<string, { at: number; series: string }[]>();
  for (const [name, timeline] of input.counted) {
    const deps = input.dependsOn.get(name) ?? [];
    let episodeHeld = false;
    let episodeSeries: string[] = [];
    for (const send of timeline.sends) {
      if (send.triggered.length > 0) episodeSeries = send.triggered;
      const holds = deps.length > 0 && isHeld(send.triggered, send.at, deps, input.replayed);
      for (const { event, channels } of send.events) {
        without += channels.length;
        if (event === 'alerting') episodeHeld = holds;
        const isHeldBack = HOLDABLE.has(event) ? holds : event === 'recovered' && episodeHeld;
        if (isHeldBack) {
          held += channels.length;
          continue;
        }
        for (const channel of channels) {
          const list = members.get(channel) ?? [];
          list.push({ at: send.at, series: send.triggered[0] ?? episodeSeries[0] ?? '' });
          members.set(channel, list);
        }
      }
    }
  }
  let sent = 0;
  for (const [channel, list] of members) {
    const grouping = input.groupBy.get(channel);
    sent += grouping ? groupedMessages(list, grouping) : list.length;
  }
  return { without, with: sent, held };
}

/** Whether every series of a notification is held by an alerting parent at `at` (none named: the alert as a whole). */
function isHeld(triggered: readonly string[], at: number, deps: readonly DependencyEdge[], replayed: ReadonlyMap<string, AlertTimeline>): boolean {
  const alertingAt = (parent: string) => stateAt(replayed.get(parent), at);
  const series = triggered.length > 0 ? triggered : [''];
  return series.every((one) => heldBy(one, deps, alertingAt) !== null);
}

/** A timeline's alerting series at `at` (the last change at or before it), null when healthy or never replayed. */
function stateAt(timeline: AlertTimeline | undefined, at: number): string[] | null {
  if (!timeline) return null;
  const { states } = timeline;
  let low = 0;
  let high = states.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (states[mid]!.at <= at) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found === -1 ? null : states[found]!.triggered;
}

/**
 * Messages one grouping channel sends for its members: per group key, the first member opens a group whose message
 * leaves `wait_seconds` later with every member by then; members within `interval_seconds` of a message go in the
 * next one; a group quiet for longer than the interval is over, and the next member opens a new one.
 */
function groupedMessages(list: readonly { at: number; series: string }[], grouping: CanonicalGroupBy): number {
  const byKey = new Map<string, number[]>();
  for (const { at, series } of list) {
    const key = groupKey(series, grouping.nodes);
    const times = byKey.get(key) ?? [];
    times.push(at);
    byKey.set(key, times);
  }
  let messages = 0;
  for (const times of byKey.values()) {
    times.sort((a, b) => a - b);
    let i = 0;
    while (i < times.length) {
      let sentAt = times[i]! + grouping.wait_seconds;
      messages += 1;
      while (i < times.length && times[i]! <= sentAt) i += 1;
      while (i < times.length && times[i]! < sentAt + grouping.interval_seconds) {
        sentAt += grouping.interval_seconds;
        messages += 1;
        while (i < times.length && times[i]! <= sentAt) i += 1;
      }
    }
  }
  return messages;
}
