import { afterEach, describe, expect, it } from 'vitest';
import { isMutedAt } from '../../../../src/model/mute-state.js';
import { openSqliteStore, type SqliteStore } from '../../../../src/server/store/sqlite/sqlite-store.js';
import type { AlertWrite } from '../../../../src/server/store/store.js';

const stores: SqliteStore[] = [];
afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
});

async function storeWithAlert() {
  const store = openSqliteStore(':memory:');
  stores.push(store);
  const account = await store.accounts.createAccount('ops@example.com');
  const channel = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/x', autoResolve: false });
  const write: AlertWrite = {
    name: 'cpu',
    metric: 'web.*.cpu',
    alertCriteria: { type: 'above', above_value: 90 },
    additionalCriteria: {},
    expression: 'a',
    notificationChannels: [channel.id],
    notificationType: ['every', 60],
    scheduledMutes: [],
    info: null,
    onQueryFailure: null,
  };
  const alert = await store.alerts.createAlert(account.id, write);
  return { store, account, channel, alert };
}

describe('the evaluator over the SQLite store', () => {
  it('saves a round of results and history in one call, dropping those of deleted alerts', async () => {
    const { store, account, alert } = await storeWithAlert();
    await store.evaluation.saveEvaluations([
      {
        alertId: alert.id,
        status: 'alerting',
        currentlyTriggeredMetrics: ['web.2.cpu'],
        evalState: JSON.stringify({ version: 1, status: 'alerting' }),
        history: [{ status: 'alerting', value: 95, time: 1_700_000_000, metric: 'web.2.cpu' }],
        deliveries: [],
      },
      { alertId: 'gone', status: 'alerting', currentlyTriggeredMetrics: [], evalState: null, history: [{ status: 'alerting', value: 1, time: 1, metric: 'x' }], deliveries: [] },
    ]);
    const read = await store.alerts.getAlert(account.id, alert.id);
    expect(read).toMatchObject({ status: 'alerting', currentlyTriggeredMetrics: ['web.2.cpu'], evalState: JSON.stringify({ version: 1, status: 'alerting' }) });
    const history = await store.history.searchHistory(account.id, { alertIds: [], since: 0, status: null, value: null });
    expect(history).toEqual([{ alertId: alert.id, status: 'alerting', value: 95, time: 1_700_000_000, metric: 'web.2.cpu' }]);
  });

  it('lists alerts as the evaluator\'s one record with their channel ids, and writes a round\'s deliveries to the outbox', async () => {
    const { store, account, channel, alert } = await storeWithAlert();
    const [listed] = await store.evaluation.listAlertsForEvaluation(Date.now());
    expect(listed).toMatchObject({
      id: alert.id,
      accountId: account.id,
      metric: 'web.*.cpu',
      alertCriteria: { type: 'above', above_value: 90 },
      notificationChannels: [channel.id],
      notificationType: ['every', 60],
      muted: false,
      acknowledged: false,
      acknowledgedAt: null,
      status: 'healthy',
      evalState: null,
    });

    // The round's notifications land in the outbox with it, per channel; unknown channels are dropped.
    const notification = { event: 'alerting', alert: { id: alert.id, name: 'cpu' }, triggered: [], conditions: [], graphUrl: null, time: 1 };
    await store.evaluation.saveEvaluations([
      {
        alertId: alert.id,
        status: 'alerting',
        currentlyTriggeredMetrics: [],
        evalState: JSON.stringify({ version: 1 }),
        history: [],
        deliveries: [
          { channelId: channel.id, event: 'alerting', payload: notification, createdAt: Date.now() },
          { channelId: 'unknown', event: 'alerting', payload: notification, createdAt: Date.now() },
        ],
      },
    ]);
    const page = await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 10 });
    expect(page.items).toMatchObject([{ state: 'pending', channel: { id: channel.id, type: 'webhook', description: 'hook' }, alert: { id: alert.id, name: 'cpu' }, event: 'alerting', attempts: 0 }]);
    expect(JSON.stringify(page)).not.toContain('hooks.example');
  });

  it('counts an alert muted by hand until its mute ends, and during an active schedule in its timezone', () => {
    const now = new Date('2026-11-23T10:30:00Z'); // a Monday
    expect(isMutedAt({ mutedUntil: now.getTime() + 60_000 }, [], now.getTime())).toBe(true);
    expect(isMutedAt({ mutedUntil: now.getTime() - 1 }, [], now.getTime())).toBe(false);
    const schedule = { id: 's', accountId: 'a', name: 'n', alerts: [], anchor: 0, duration: 60 };
    // 12:00 in UTC+2 is 10:00 UTC: active for an hour on Mondays.
    expect(isMutedAt({ mutedUntil: null }, [{ ...schedule, startTime: '12:00', timezone: 'UTC+2', repeat: ['mon'] }], now.getTime())).toBe(true);
    expect(isMutedAt({ mutedUntil: null }, [{ ...schedule, startTime: '12:00', timezone: 'UTC+2', repeat: ['tue'] }], now.getTime())).toBe(false);
    expect(isMutedAt({ mutedUntil: null }, [{ ...schedule, startTime: '12:00', timezone: 'UTC', repeat: ['mon'] }], now.getTime())).toBe(false);
  });
});
