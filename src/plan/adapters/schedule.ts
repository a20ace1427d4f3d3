import { canonicalWeekdays, type CanonicalSchedule } from '../../model/canonical.js';
import { canonicalTimezone } from '../../model/timezone.js';
import type { ScheduleRead } from '../../model/types.js';
import type { ScheduleDefinition } from '../../definitions/definitions.js';
import { pick, type AdapterOf } from './adapter.js';

function canonical(s: ScheduleDefinition | ScheduleRead): CanonicalSchedule {
  return {
    name: s.name,
    start_time: s.start_time,
    duration: s.duration,
    timezone: canonicalTimezone(s.timezone),
    repeat: canonicalWeekdays(s.repeat),
  };
}

/** Scheduled mutes (/v2/schedules/), identified by name. */
export const scheduleAdapter: AdapterOf<'schedule'> = {
  kind: 'schedule',
  keyOf: (read) => read.name,
  idOf: (read) => read.id,
  canonicalDesired: (spec) => canonical(spec),
  canonicalActual: (read) => canonical(read),
  unknownFields: () => [],
  references: () => [],
  secretPaths: () => [],
  createBody: (c) => ({ ...c }),
  updateBody: (c, _ids, fields) => pick(c, fields),
  create: (client, body) => client.createSchedule(body),
  update: (client, id, body) => client.updateSchedule(id, body),
  remove: (client, id) => client.deleteSchedule(id),
};
