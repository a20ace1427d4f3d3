import { heldBy, type DependencyEdge } from '../../evaluation/dependencies.js';
import type { DependsOnItem } from '../../model/types.js';
import type { EvalState } from '../../evaluation/transitions.js';
import type { NewDelivery } from './outbox.js';
import type { EvaluationUpdate, HeldNotification, NotificationRecord } from './evaluation-store.js';

/**
 * Holding a child alert's new pages while a parent alerts (pure; the stores call it inside the fenced save, with the
 * parents' state as stored, and this round's own updates over it, so replicas and partitions decide alike). It lives
 * with the store, not the evaluator, because the decision must read the parents and write the round in one
 * transaction: a parent saved by another replica between a read and the save would otherwise page the child.
 *
 * What is held: the new alerting, reminder, no_data and escalation notifications of a child whose every notified
 * series is held by an alerting parent (evaluation/dependencies.ts). The child's state is told what went out, so
 * that its resolve goes exactly where its alerting went: a held alerting leaves the episode un-notified (no
 * resolve), a held no_data no no_data_recovered, a held escalation step no recovery to its channels. Resolves and
 * query failures are never held. A chain holds through each link: a parent that alerts holds its children whether
 * its own pages were held or not.
 */

/**
 * The most series the hold reads of a parent (its first alerting ones) and of a child's notification: a notification
 * about more is never held (it pages), and a child series matched only by a parent's later series is not held. The
 * round's cost is then at most 10 parents' index of this many series and this many lookups per parent.
 */
export const MAX_HOLD_SERIES = 10_000;

/** The notification kinds a parent's alerting holds back. */
export const HELD_EVENTS: ReadonlySet<string> = new Set(['alerting', 'reminder', 'no_data', 'escalated']);

/** A parent as the hold needs it: its name (for the reason) and its alerting series (null: not alerting). */
export interface ParentState {
  name: string;
  alerting: string[] | null;
}

/** Whether a round notifies anything a dependency could hold (the stores read nothing otherwise). */
export function mayHold(updates: readonly EvaluationUpdate[]): string[] {
  return updates.filter((update) => update.deliveries.some((delivery) => HELD_EVENTS.has(delivery.event))).map((update) => update.alertId);
}

/** The parents' states: as stored, with this round's updates over them (a parent that turns alerting now holds now). */
export function parentStates(stored: Iterable<{ id: string; name: string; status: string; triggered: string[] }>, updates: readonly EvaluationUpdate[]): Map<string, ParentState> {
  const round = new Map(updates.map((update) => [update.alertId, update]));
  const states = new Map<string, ParentState>();
  for (const parent of stored) {
    const update = round.get(parent.id);
    const status = update?.status ?? parent.status;
    const alerting = status === 'alerting' ? (update?.currentlyTriggeredMetrics ?? parent.triggered) : null;
    states.set(parent.id, { name: parent.name, alerting: alerting && alerting.length > MAX_HOLD_SERIES ? alerting.slice(0, MAX_HOLD_SERIES) : alerting });
  }
  return states;
}

/** The round with the held notifications taken out, their history saying why, and their alerts' states told. */
export function holdDependents(
  updates: readonly EvaluationUpdate[],
  children: ReadonlyMap<string, DependsOnItem[]>,
  parents: ReadonlyMap<string, ParentState>,
): EvaluationUpdate[] {
  const alerting = (id: string) => parents.get(id)?.alerting ?? null;
  return updates.map((update) => {
    const deps = children.get(update.alertId);
    if (!deps || deps.length === 0) return update;
    const edges = deps.map(edgeOf);
    // One notification goes to several channels as one payload object: decided once per notification.
    const byNotification = new Map<unknown, NewDelivery[]>();
    for (const delivery of update.deliveries) {
      if (!HELD_EVENTS.has(delivery.event)) continue;
      const list = byNotification.get(delivery.payload);
      if (list) list.push(delivery);
      else byNotification.set(delivery.payload, [delivery]);
    }
    const held = new Set<NewDelivery>();
    const entries: NotificationRecord[] = [];
    for (const [payload, deliveries] of byNotification) {
      const series = seriesOf(payload);
      if (series.length > MAX_HOLD_SERIES) continue;
      const holders = series.map((one) => heldBy(one, edges, alerting));
      if (holders.some((holder) => holder === null)) continue;
      const parent = parents.get(holders[0]!.alertId)!;
      for (const delivery of deliveries) held.add(delivery);
      // A page held before and offered again each cycle (transitions.ts: a held page is owed) is held quietly: its
      // history said so once, when the episode began.
      if (isOfferedAgain(payload, update)) continue;
      const first = (payload as { triggered?: { metric: string; value: number | null }[] }).triggered?.[0];
      entries.push({
        status: 'held',
        value: first?.value ?? null,
        metric: series[0] ?? '',
        time: (payload as { time?: number }).time ?? Math.floor(deliveries[0]!.createdAt / 1000),
        channelId: null,
        reason: `depends on ${parent.name}, which is alerting`,
      });
    }
    if (held.size === 0) return update;
    const heldEntry = (entry: EvaluationUpdate['history'][number]) =>
      entry.status === 'notification_sent' &&
      [...held].some((delivery) => delivery.channelId === (entry as NotificationRecord).channelId && (entry as NotificationRecord).reason.startsWith(delivery.event));
    return {
      ...update,
      deliveries: update.deliveries.filter((delivery) => !held.has(delivery)),
      history: [...update.history.filter((entry) => !heldEntry(entry)), ...entries],
      evalState: toldState(update.evalState, [...held]),
    };
  });
}

/** The notifications a saved round held back (their `held` history entries, which only the dependency hold writes). */
export function heldNotifications(saved: readonly EvaluationUpdate[]): HeldNotification[] {
  return saved.flatMap((update) =>
    update.history.flatMap((entry) => (entry.status === 'held' ? [{ alertId: update.alertId, metric: entry.metric, reason: (entry as NotificationRecord).reason }] : [])),
  );
}

/**
 * Whether a notification is an episode's alerting page offered again after a hold, not the transition's own: the
 * transition writes its `alerting` history entries in the same update, an offer again writes none.
 */
function isOfferedAgain(payload: unknown, update: EvaluationUpdate): boolean {
  return (payload as { event?: string }).event === 'alerting' && !update.history.some((entry) => entry.status === 'alerting');
}

/** The series a notification is about: its triggered series, or the alert's query when it names none (no data). */
function seriesOf(payload: unknown): string[] {
  const notification = payload as { triggered?: { metric: string }[]; alert?: { metric?: string } };
  const triggered = (notification.triggered ?? []).map((one) => one.metric);
  return triggered.length > 0 ? triggered : [notification.alert?.metric ?? ''];
}

/** The state as if the held notifications had not been sent: what a resolve is owed to follows what went out. */
function toldState(text: string | null, held: readonly NewDelivery[]): string | null {
  if (text === null) return null;
  const state = JSON.parse(text) as EvalState;
  const events = new Set(held.map((delivery) => delivery.event));
  if (events.has('alerting')) {
    state.alertingNotified = false;
    delete state.pagedChannels;
  }
  if (events.has('no_data')) state.noDataNotified = false;
  if (events.has('escalated') && state.escalation) {
    const channels = new Set(held.filter((delivery) => delivery.event === 'escalated').map((delivery) => delivery.channelId));
    state.escalation = { ...state.escalation, escalatedChannels: state.escalation.escalatedChannels.filter((id) => !channels.has(id)) };
  }
  return JSON.stringify(state);
}

/** A stored `depends_on` item (the API's form, the parent by id) as the pure decision reads it. */
function edgeOf(item: DependsOnItem): DependencyEdge {
  return { alertId: item.alert, ...(item.nodes ? { nodes: item.nodes } : {}), ...(item.parent_nodes ? { parentNodes: item.parent_nodes } : {}) };
}
