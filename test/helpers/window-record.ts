import type { WindowRecord } from '../../src/server/store/window-store.js';

/**
 * A maintenance window as the store keeps it, for code that matches windows without a store (unit tests, the
 * noise-bounds bench): weekly on Mondays at 00:00 UTC for an hour, matching every alert, unless `fields` say otherwise.
 */
export function windowRecord(id: string, accountId: string, fields: Partial<WindowRecord> = {}): WindowRecord {
  return {
    id,
    accountId,
    name: id,
    reason: null,
    match: { alert_names: ['*'] },
    startsAt: null,
    startTime: '00:00',
    repeat: ['mon'],
    timezone: 'UTC',
    duration: 60,
    createdBy: 'api',
    updatedBy: 'api',
    ...fields,
  };
}
