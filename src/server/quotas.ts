import { HttpError } from './errors.js';
import type { Store } from './store/store.js';

// The quotas and their defaults are in model/defaults.ts: serve's option table shows them in --help without
// loading the server.
export { DEFAULT_QUOTAS, type Quotas } from '../model/defaults.js';

/**
 * Refuses a create when the account already holds `limit` resources of the kind: 403 quota_exceeded. Asks the
 * store for the item at position `limit` (a page of one), which every backend answers with its own search, so
 * no count method is needed. Concurrent creates may pass the check together and overshoot by a few.
 */
export async function assertBelowQuota(store: Pick<Store, 'alerts' | 'channels' | 'schedules'>, accountId: string, kind: 'alerts' | 'channels' | 'schedules', limit: number): Promise<void> {
  const page = { page: limit, max: 1 };
  const found =
    kind === 'alerts'
      ? await store.alerts.searchAlerts(accountId, { names: [], ids: [], search: null, ...page })
      : kind === 'channels'
        ? await store.channels.searchChannels(accountId, { types: [], descriptions: [], ids: [], autoResolve: null, ...page })
        : await store.schedules.searchSchedules(accountId, { names: [], ids: [], durations: [], startTimes: [], timezones: [], repeat: [], ...page });
  if (found.items.length > 0) {
    throw new HttpError('quota_exceeded', `the account already has ${limit} ${kind}, its limit; delete some first or ask the operator`);
  }
}
