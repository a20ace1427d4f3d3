import type { FieldProblem } from '../../model/schemas.js';
import type { ScheduleBody } from '../../model/types.js';
import { DEFAULT_TIMEZONE } from '../../model/defaults.js';
import { canonicalWeekdays } from '../../model/canonical.js';
import { formatTimezone, timezoneOffsetMinutes } from '../../model/timezone.js';
import type { ScheduleRecord, ScheduleWrite } from '../store/store.js';
import type { RuleResult } from './alert-rules.js';

/** The semantic rules of a schedule body that passed the JSON Schema: the timezone lies in UTC-12..UTC+14. */
export function checkScheduleRules(body: ScheduleBody, anchor: number): RuleResult<ScheduleWrite> {
  const problems: FieldProblem[] = [];
  const timezone = body.timezone ?? DEFAULT_TIMEZONE;
  const offset = timezoneOffsetMinutes(timezone);
  if (offset < -12 * 60 || offset > 14 * 60) {
    problems.push({ path: 'timezone', message: 'must be between UTC-12 and UTC+14' });
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      name: body.name,
      startTime: body.start_time,
      duration: body.duration,
      timezone: formatTimezone(offset),
      // Stored as a set, Monday first (what a GET shows and a plan compares), whatever order it was sent in.
      repeat: canonicalWeekdays(body.repeat),
      anchor,
    },
  };
}

/** The body a schedule PUT stands for. */
export function mergeScheduleUpdate(stored: ScheduleRecord, patch: Partial<ScheduleBody>): ScheduleBody {
  return {
    name: patch.name ?? stored.name,
    start_time: patch.start_time ?? stored.startTime,
    duration: patch.duration ?? stored.duration,
    timezone: patch.timezone ?? stored.timezone,
    repeat: patch.repeat ?? stored.repeat,
  };
}

/** Whether a PUT changes when a schedule runs (a one-time schedule then counts from now again). */
export function changesTiming(stored: ScheduleRecord, next: ScheduleWrite): boolean {
  return (
    stored.startTime !== next.startTime ||
    stored.timezone !== next.timezone ||
    stored.duration !== next.duration ||
    JSON.stringify(canonicalWeekdays(stored.repeat)) !== JSON.stringify(canonicalWeekdays(next.repeat))
  );
}
