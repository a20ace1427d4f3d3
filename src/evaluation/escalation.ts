import type { TriggeredMetric } from './judge-alert.js';

/** One escalation step of an alert, as the API stores it: after N minutes alerting, notify these channels (ids). */
export interface EscalationStep {
  after_minutes: number;
  notification_channels: string[];
}

/** Which step of the alert's escalation a notification is: 1-based `step` of `of`, due `after_minutes` in. */
export interface EscalationNote {
  step: number;
  of: number;
  after_minutes: number;
}

/** What the evaluator remembers of an alerting episode's escalation (fields of EvalState). */
export interface EscalationMemory {
  /** Unix seconds when the current alerting episode began; null while healthy. */
  alertingSince: number | null;
  /** `after_minutes` of the steps sent in this episode (steps ascend strictly, so it names a step). */
  escalatedSteps: number[];
  /** Steps whose holding back (ack, mute) is already in the history: one entry per step, not one per cycle. */
  heldSteps: number[];
  /** Channels escalated to in this episode: the recovery goes to them too. */
  escalatedChannels: string[];
}

export const NO_ESCALATION: EscalationMemory = { alertingSince: null, escalatedSteps: [], heldSteps: [], escalatedChannels: [] };

/** What the escalation decided this cycle: notifications for other channels than the alert's own, and what it held. */
export interface EscalationOutcome {
  memory: EscalationMemory;
  notifications: { event: 'escalated' | 'recovered'; triggered: TriggeredMetric[]; channels: string[]; escalation?: EscalationNote }[];
  suppressed: { event: 'escalated'; triggered: TriggeredMetric[]; reason: string }[];
}

export interface EscalationContext {
  now: number;
  steps: readonly EscalationStep[];
  muted: boolean;
  acknowledged: boolean;
}

/**
 * One cycle of an alert that is alerting. The episode's clock starts at the cycle that saw it go alerting
 * (`startsEpisode`); an alert already alerting with no clock (a state stored before escalation existed) starts it
 * now rather than escalating at once. Every step whose `after` has passed and that was not sent is sent, once and
 * in order: after a downtime longer than several steps, each overdue step goes out in the same cycle (each to its
 * own channels, each in the history), so nobody in the chain is skipped. While acknowledged or muted, a due step is
 * held (recorded once, with why) and goes out when the ack or the mute ends while the alert still alerts.
 */
export function escalateAlerting(
  previous: EscalationMemory,
  startsEpisode: boolean,
  triggered: TriggeredMetric[],
  context: EscalationContext,
): EscalationOutcome {
  const memory: EscalationMemory = startsEpisode || previous.alertingSince === null ? { ...NO_ESCALATION, alertingSince: context.now } : { ...previous };
  const outcome: EscalationOutcome = { memory, notifications: [], suppressed: [] };
  const elapsed = context.now - memory.alertingSince!;
  const held = context.acknowledged ? 'acknowledged' : context.muted ? 'muted' : null;
  context.steps.forEach((step, index) => {
    if (step.after_minutes * 60 > elapsed || memory.escalatedSteps.includes(step.after_minutes)) return;
    const note = { step: index + 1, of: context.steps.length, after_minutes: step.after_minutes };
    if (held !== null) {
      if (memory.heldSteps.includes(step.after_minutes)) return;
      memory.heldSteps = [...memory.heldSteps, step.after_minutes];
      outcome.suppressed.push({ event: 'escalated', triggered, reason: `step ${note.step} (after ${step.after_minutes} minutes) held back: ${held}` });
      return;
    }
    memory.escalatedSteps = [...memory.escalatedSteps, step.after_minutes];
    memory.escalatedChannels = [...new Set([...memory.escalatedChannels, ...step.notification_channels])];
    outcome.notifications.push({ event: 'escalated', triggered, channels: [...step.notification_channels], escalation: note });
  });
  return outcome;
}

/**
 * The recovery of an episode that escalated: the channels escalated to hear it too (those that are not the alert's
 * own, which get the ordinary recovery). Sent when the ordinary recovery is sent; the memory is cleared either way.
 */
export function escalationRecovery(
  previous: EscalationMemory,
  ownChannels: readonly string[],
  recovered: TriggeredMetric[],
  sendRecovery: boolean,
): EscalationOutcome {
  const own = new Set(ownChannels);
  const channels = previous.escalatedChannels.filter((id) => !own.has(id));
  const notifications: EscalationOutcome['notifications'] = sendRecovery && channels.length > 0 ? [{ event: 'recovered', triggered: recovered, channels }] : [];
  return { memory: { ...NO_ESCALATION }, notifications, suppressed: [] };
}
