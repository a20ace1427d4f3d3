import type { ScheduleBody, ScheduleRead, Weekday } from '../../model/types.js';
import type { ScheduleDefinition } from '../../definitions/definitions.js';
import type { CanonicalSchedule } from '../types.js';
import { pick, type ResourceAdapter } from './adapter.js';

const WEEK: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Timezone `UTC+02:00`, `UTC+2` and `UTC+0` written one way: `UTC+2`, `UTC`. */
export function canonicalTimezone(zone: string | undefined | null): string {
  const match = /^UTC(?:([+-])0?(\d{1,2})(?::([0-5]\d))?)?$/.exec(zone ?? 'UTC');
  if (!match || !match[1]) return zone || 'UTC';
  const hours = Number(match[2]);
  const minutes = match[3] && match[3] !== '00' ? `:${match[3]}` : '';
  return hours === 0 && !minutes ? 'UTC' : `UTC${match[1]}${hours}${minutes}`;
}

function canonical(s: ScheduleDefinition | ScheduleRead): CanonicalSchedule {
  return {
    name: s.name,
    start_time: s.start_time,
    duration: s.duration,
    timezone: canonicalTimezone(s.timezone),
    repeat: WEEK.filter((day) => (s.repeat ?? []).includes(day)),
  };
}

/** Scheduled mutes (/v2/schedules/), identified by name. */
export const scheduleAdapter: ResourceAdapter<ScheduleDefinition, ScheduleRead, CanonicalSchedule, ScheduleBody> = {
  kind: 'schedule',
  keyOf: (read) => read.name,
  idOf: (read) => read.id,
  canonicalDesired: (spec) => canonical(spec),
  canonicalActual: (read) => canonical(read),
  unknownFields: () => [],
  references: () => ({ channel: [], schedule: [] }),
  secretPaths: () => [],
  toBody: (c, _ids, fields) => pick({ ...c }, fields),
  create: (client, body) => client.createSchedule(body),
  update: (client, id, body) => client.updateSchedule(id, body),
  remove: (client, id) => client.deleteSchedule(id),
};
