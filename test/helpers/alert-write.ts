import type { AlertWrite } from '../../src/server/store/store.js';

/** An alert as the Store's suites write it: `cpu` above 90 on `host.*.cpu`, notifying `channelId`, unless overridden. */
export function alertWrite(channelId: string, overrides: Partial<AlertWrite> = {}): AlertWrite {
  return {
    name: 'cpu',
    metric: 'host.*.cpu',
    alertCriteria: { type: 'above', above_value: 90 },
    additionalCriteria: {},
    expression: 'a',
    notificationChannels: [channelId],
    notificationType: ['every', 60],
    scheduledMutes: [],
    info: null,
    onQueryFailure: null,
    ...overrides,
  };
}
