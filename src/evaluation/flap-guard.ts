import type { FlapGuard } from '../model/noise-control.js';
import type { Advance, EvalState, NotificationEvent } from './transitions.js';

/**
 * The flap guard (an alert's `flap_guard: {max_changes, window_minutes}`), pure: applied by advanceAlert to each
 * cycle's result. It remembers the times of the alert's recent state changes (at most max_changes + 1, none older
 * than the window) in EvalState. What channels get:
 *
 * - the change that makes more than `max_changes` changes within the window sends ONE `flapping` notification
 *   (how many changes in how many minutes) instead of its alerting or recovered one;
 * - while flapping, alerting and reminder notifications are suppressed (history: notification_suppressed,
 *   "flapping: ..."); query failures are not state changes and still notify. A recovery is never held: the
 *   transition emits one only when channels were told about the episode, and that resolve is owed to them (an open
 *   PagerDuty incident must close even if the alert flaps afterwards);
 * - once no change has happened for a whole window, ONE notification of its current state: `alerting` (with the
 *   metrics breaching now) or `recovered`, and the alert notifies as usual again.
 *
 * Muted: the same bookkeeping, nothing sent (suppressed as `muted`).
 */

/** The events the guard holds back while an alert flaps (never a recovery: see above). */
const PAUSED: ReadonlySet<NotificationEvent> = new Set(['alerting', 'reminder']);

/** The flap guard's part of EvalState (older stored states have neither: read as none and not flapping). */
export interface FlapState {
  /** Unix seconds of the state changes within the window, oldest first; at most max_changes + 1. */
  recentChanges: number[];
  flapping: boolean;
}

export function guardFlapping(previous: EvalState, advance: Advance, guard: FlapGuard | null | undefined, now: number, muted: boolean): Advance {
  if (!guard) {
    // No guard (or one just removed): nothing remembered, nothing held.
    if (!previous.flapping && (previous.recentChanges ?? []).length === 0) return advance;
    return { ...advance, state: { ...advance.state, recentChanges: [], flapping: false } };
  }
  const window = guard.window_minutes * 60;
  const changed = advance.state.status !== previous.status;
  const recentChanges = [...(previous.recentChanges ?? []), ...(changed ? [now] : [])]
    .filter((time) => time > now - window)
    .slice(-(guard.max_changes + 1));
  const state: EvalState = { ...advance.state, recentChanges, flapping: previous.flapping ?? false };
  const result: Advance = { ...advance, state };

  const startsFlapping = !state.flapping && recentChanges.length > guard.max_changes;
  if (!state.flapping && !startsFlapping) return result;

  // Flapping (from now, or still): hold back the state's notifications, and undo what sending them would have noted.
  const figures = { changes: recentChanges.length, window_minutes: guard.window_minutes };
  const reason = `flapping: more than ${guard.max_changes} state changes in ${guard.window_minutes} minutes; notifications resume once it is stable for ${guard.window_minutes} minutes`;
  const paused = advance.notifications.filter((one) => PAUSED.has(one.event));
  result.notifications = advance.notifications.filter((one) => !PAUSED.has(one.event));
  // What the transition held back itself (an alerting notice in the backoff) is held for flapping too.
  const alreadyHeld = advance.suppressed.map((one) => (PAUSED.has(one.event) && one.reason !== 'muted' ? { ...one, reason } : one));
  result.suppressed = [...alreadyHeld, ...paused.map((one) => ({ event: one.event, triggered: one.triggered, reason }))];
  if (paused.length > 0) {
    // As before this cycle's (held) sending: a held reminder leaves the episode told, and its resolve owed.
    state.alertingNotified = previous.status === 'alerting' && previous.alertingNotified;
    state.lastNotifiedAt = previous.lastNotifiedAt;
    if (previous.status === 'alerting' && previous.pagedChannels) state.pagedChannels = previous.pagedChannels;
    else delete state.pagedChannels;
  }

  if (startsFlapping) {
    state.flapping = true;
    const triggered = paused[0]?.triggered ?? state.triggered;
    if (muted) result.suppressed.push({ event: 'flapping', triggered, reason: 'muted' });
    else result.notifications.push({ event: 'flapping', triggered, flapping: figures });
    return result;
  }

  if (recentChanges.length === 0) {
    // Stable for a whole window: say where it settled, once.
    state.flapping = false;
    const event = state.status === 'alerting' ? 'alerting' : 'recovered';
    if (muted) {
      result.suppressed.push({ event, triggered: state.triggered, reason: 'muted' });
    } else {
      result.notifications.push({ event, triggered: state.triggered });
      state.alertingNotified = event === 'alerting';
      if (event === 'alerting') state.lastNotifiedAt = now;
    }
  }
  return result;
}
