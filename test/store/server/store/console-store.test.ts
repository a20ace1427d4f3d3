import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_CHANNEL, type AlertWrite, type Store } from '../../../../src/server/store/store.js';
import { alertWrite, describeEachStore } from '../../../helpers/store-backends.js';

/** The console's part of the Store (timeline, retries, tests, marker, secrets), the same on every backend. */
describeEachStore('the $name store for the console', (backend) => {
  let store: Store;
  let account: string;
  let emailMe: string;
  beforeEach(async () => {
    store = await backend.openStore();
    account = (await store.accounts.createAccount('ops@example.com')).id;
    emailMe = (await store.channels.findChannelsByRefs(account, [DEFAULT_CHANNEL]))[0]!.id;
  });
  afterEach(() => store.close());

  const alert = (overrides: Partial<AlertWrite> = {}): AlertWrite => alertWrite(emailMe, overrides);

  it('keeps the console kinds out of the public history and shows them all in the timeline, with their channel', async () => {
    const { id } = await store.alerts.createAlert(account, alert());
    await store.evaluation.saveEvaluations([
      {
        alertId: id,
        status: 'alerting', currentlyTriggeredMetrics: ['host.a.cpu'], evalState: null,
        history: [
          { status: 'alerting', value: 95, time: 1000, metric: 'host.a.cpu' },
          { status: 'notification_sent', value: null, time: 1000, metric: 'host.a.cpu', channelId: emailMe, reason: 'alerting' },
        ],
        deliveries: [],
      },
    ]);
    await store.history.appendHistory([{ alertId: id, status: 'notification_suppressed', value: null, time: 1001, metric: '', reason: 'muted' }]);
    const history = await store.history.searchHistory(account, { alertIds: [id], since: 0, status: null, value: null });
    expect(history.map((entry) => entry.status)).toEqual(['alerting']);
    const timeline = await store.console.listTimeline(account, id, 0, 100);
    expect(timeline).toEqual([
      { kind: 'notification_suppressed', time: 1001, metric: '', value: null, channel: null, reason: 'muted', by: null },
      { kind: 'notification_sent', time: 1000, metric: 'host.a.cpu', value: null, channel: { id: emailMe, type: 'email', description: DEFAULT_CHANNEL }, reason: 'alerting', by: null },
      { kind: 'alerting', time: 1000, metric: 'host.a.cpu', value: 95, channel: null, reason: null, by: null },
    ]);
    const other = await store.accounts.createAccount(null);
    expect(await store.console.listTimeline(other.id, id, 0, 100)).toEqual([]);
    expect(await store.console.listTimeline(account, id, 1001, 100)).toHaveLength(1);
  });

  it('lists deliveries by alert, retries a dead one only, and writes a test notification for a channel of the account only', async () => {
    const first = await store.alerts.createAlert(account, alert());
    const second = await store.alerts.createAlert(account, alert({ name: 'disk' }));
    const delivery = (alertId: string) => ({ channelId: emailMe, event: 'alerting', payload: { test: alertId }, createdAt: 1 });
    await store.evaluation.saveEvaluations([
      { alertId: first.id, status: 'alerting', currentlyTriggeredMetrics: [], evalState: null, history: [], deliveries: [delivery(first.id)] },
      { alertId: second.id, status: 'alerting', currentlyTriggeredMetrics: [], evalState: null, history: [], deliveries: [delivery(second.id)] },
    ]);
    const listed = await store.outbox.listDeliveries(account, { states: ['pending'], alertId: first.id, page: 1, max: 10 });
    expect(listed.items.map((item) => item.alert.id)).toEqual([first.id]);
    const id = listed.items[0]!.id;
    expect(await store.console.retryDelivery(account, id, 5)).toBe('not_dead');
    const [claimed] = await store.outbox.claimDueDeliveries({ worker: 'w', now: 10, leaseMs: 1000, limit: 10 });
    await store.outbox.finishDeliveries([{ id: claimed!.id, worker: 'w', outcome: { state: 'dead', at: 11, error: 'rejected' } }]);
    const other = await store.accounts.createAccount(null);
    expect(await store.console.retryDelivery(other.id, claimed!.id, 20)).toBeNull();
    expect(await store.console.retryDelivery(account, claimed!.id, 20)).toBe('retried');
    expect(await store.console.getDelivery(account, claimed!.id)).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: 20, lastError: 'rejected' });
    expect(await store.console.getDelivery(other.id, claimed!.id)).toBeNull();

    const test = { alertId: '', alertName: 'test notification', event: 'test', payload: { test: true }, createdAt: 30 };
    expect(await store.console.enqueueChannelTest(other.id, emailMe, test)).toBeNull();
    const queued = await store.console.enqueueChannelTest(account, emailMe, test);
    expect(queued).toMatchObject({ state: 'pending', event: 'test', channel: { id: emailMe }, alert: { id: '', name: 'test notification' } });
  });

  it('marks an alert managed from git for its own account only', async () => {
    const { id } = await store.alerts.createAlert(account, alert());
    expect(await store.console.isManagedFromGit(account, id)).toBe(false);
    const other = await store.accounts.createAccount(null);
    expect(await store.console.setManagedFromGit(other.id, id, true)).toBe(false);
    expect(await store.console.setManagedFromGit(account, id, true)).toBe(true);
    expect(await store.console.isManagedFromGit(account, id)).toBe(true);
    expect(await store.console.isManagedFromGit(other.id, id)).toBe(false);
  });

  it('finds the owner of an alert with its metric prefixes, for signed graph links', async () => {
    const { id } = await store.alerts.createAlert(account, alert());
    await store.accounts.setMetricPrefixes(account, ['team1.']);
    expect(await store.console.findAlertOwner(id)).toEqual({ accountId: account, metricPrefixes: ['team1.'] });
    expect(await store.console.findAlertOwner('nope')).toBeNull();
  });

  it('creates a server secret once and answers the same value after', async () => {
    const first = await store.console.getServerSecret('graph-links', () => 'one');
    expect(first).toBe('one');
    expect(await store.console.getServerSecret('graph-links', () => 'two')).toBe('one');
  });
});
