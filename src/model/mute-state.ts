import { activeScheduleEnd, type ScheduleTiming } from './schedule-active.js';

/**
 * Whether an alert is muted at `now` (epoch ms) and until when: by hand until `mutedUntil`, or by an active
 * scheduled mute until its end. The one place that decides "muted now", for the API's `muted` and the evaluator.
 */
export function muteState(alert: { mutedUntil: number | null }, schedules: readonly ScheduleTiming[], now: number): { muted: boolean; until: number | null } {
  let until = alert.mutedUntil !== null && alert.mutedUntil > now ? alert.mutedUntil : null;
  for (const schedule of schedules) {
    const end = activeScheduleEnd(schedule, now);
    if (end !== null && (until === null || end > until)) until = end;
  }
  return { muted: until !== null, until };
}

/** Whether an alert is muted at `now` (epoch ms); stops at the first reason, for the evaluator's every alert and cycle. */
export function isMutedAt(alert: { mutedUntil: number | null }, schedules: readonly ScheduleTiming[], now: number): boolean {
  if (alert.mutedUntil !== null && alert.mutedUntil > now) return true;
  return schedules.some((schedule) => activeScheduleEnd(schedule, now) !== null);
}
