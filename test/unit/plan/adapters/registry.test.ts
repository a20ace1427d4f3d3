import { describe, expect, it } from 'vitest';
import { RESOURCE_KINDS, type ResourceKind } from '../../../../src/definitions/definitions.js';
import { adapterFor, readsOf } from '../../../../src/plan/adapters/registry.js';
import { alertRead, channelRead, scheduleRead, stateOf } from '../fixtures.js';

describe('the adapter registry', () => {
  it('has one adapter per kind, of that kind', () => {
    expect(RESOURCE_KINDS.map((kind) => adapterFor(kind).kind)).toEqual(RESOURCE_KINDS);
  });

  it('names objects the way the API identifies them: alerts, schedules and windows by name, channels by description', () => {
    const window = { id: 'w1', name: 'patching', match: { alert_names: ['*'] }, starts_at: '2026-12-24T21:00:00Z', duration: 60 };
    const actual = stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu' })], schedules: [scheduleRead({ id: 's1', name: 'nightly' })], channels: [channelRead({ id: 'c1', description: 'pager' })], maintenanceWindows: [window] });
    const keysOf = <K extends ResourceKind>(kind: K) => readsOf(actual, kind).map((read) => adapterFor(kind).keyOf(read));
    expect(RESOURCE_KINDS.map(keysOf)).toEqual([['nightly'], ['Email me', 'pager'], ['cpu'], ['patching']]);
  });

  it('knows what an alert refers to, and that channels and schedules refer to nothing', () => {
    const actual = stateOf({ alerts: [alertRead({ id: 'a1', name: 'cpu', scheduled_mutes: ['s1'] })] });
    const refs = { channel: (id: string) => `channel ${id}`, schedule: (id: string) => `schedule ${id}`, alert: (id: string) => `alert ${id}` };
    const alert = adapterFor('alert').canonicalActual(actual.alerts[0]!, refs);
    expect(adapterFor('alert').references(alert)).toEqual([
      { kind: 'channel', path: 'notification_channels', names: ['channel ch-email'] },
      { kind: 'schedule', path: 'scheduled_mutes', names: ['schedule s1'] },
    ]);
    expect(adapterFor('channel').references(adapterFor('channel').canonicalActual(actual.channels[0]!, refs))).toEqual([]);
  });
});
