import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AckWrite } from '../../../../src/server/store/ack-store.js';
import { DEFAULT_CHANNEL, type Store } from '../../../../src/server/store/store.js';
import { alertWrite, describeEachStore } from '../../../helpers/store-backends.js';

const T = 1_800_000_000;

/** An acknowledgement by `by` at `at`, telling `channelId`. */
function ackWrite(by: string, at: number, channelId: string, until: number | null = null): AckWrite {
  return {
    acknowledgement: { by, note: null, at, until },
    history: { status: 'acknowledged', value: null, metric: '', time: at, channelId: null, reason: `by ${by}` },
    deliveries: [{ channelId, event: 'acknowledged', payload: { event: 'acknowledged' }, createdAt: at * 1000 }],
  };
}

/** The acknowledgement's contract, the same on SQLite and PostgreSQL. */
describeEachStore('acknowledgements on the $name store', (backend) => {
  let store: Store;
  let account: string;
  let channel: string;
  let alertId: string;
  beforeEach(async () => {
    store = await backend.openStore();
    account = (await store.accounts.createAccount('ops@example.com')).id;
    channel = (await store.channels.findChannelsByRefs(account, [DEFAULT_CHANNEL]))[0]!.id;
    alertId = (await store.alerts.createAlert(account, alertWrite(channel))).id;
  });
  afterEach(() => store.close());

  const goAlerting = () => store.evaluation.saveEvaluations([{ alertId, status: 'alerting', currentlyTriggeredMetrics: ['host.1.cpu'], evalState: null, history: [], deliveries: [] }]);
  const ackDeliveries = async () =>
    (await store.outbox.listDeliveries(account, { states: ['pending'], alertId, page: 1, max: 100 })).items.filter((d) => d.event === 'acknowledged');

  it('acknowledges only an alerting alert of the account, writing its history and one delivery per channel once', async () => {
    expect(await store.acks.acknowledgeAlert(account, alertId, ackWrite('ann', T, channel))).toEqual({ outcome: 'not_alerting' });
    const other = await store.accounts.createAccount(null);
    expect(await store.acks.acknowledgeAlert(other.id, alertId, ackWrite('eve', T, channel))).toBeNull();
    await goAlerting();
    expect(await store.acks.acknowledgeAlert(account, alertId, ackWrite('ann', T, channel, T + 600))).toEqual({ outcome: 'acknowledged', notified: true });
    expect((await store.alerts.getAlert(account, alertId))!.acknowledgement).toEqual({ by: 'ann', note: null, at: T, until: T + 600 });
    // Again while it holds: replaced, nobody told twice.
    expect(await store.acks.acknowledgeAlert(account, alertId, ackWrite('bob', T + 60, channel))).toEqual({ outcome: 'acknowledged', notified: false });
    expect(await ackDeliveries()).toHaveLength(1);
    // Bob's has no end, so it still holds: the third tells nobody either.
    expect(await store.acks.acknowledgeAlert(account, alertId, ackWrite('cy', T + 700, channel, T + 800))).toMatchObject({ notified: false });
    const timeline = await store.console.listTimeline(account, alertId, 0, 100);
    expect(timeline.filter((e) => e.kind === 'acknowledged').map((e) => e.reason)).toEqual(['by cy', 'by bob', 'by ann']);
  });

  it('writes a link-bound acknowledgement only while its episode is the current one, judged in the transaction', async () => {
    // The episode alerting since T (what the evaluator stored); a link of the episode that began at T - 3600 is stale.
    const episodeState = (since: number) => ({ version: 1, status: 'alerting', triggered: [], lastNotifiedAt: since, alertingNotified: true, queryFailing: false, queryFailureNotified: false, alertingSince: since });
    await store.evaluation.saveEvaluations([{ alertId, status: 'alerting', currentlyTriggeredMetrics: ['host.1.cpu'], evalState: JSON.stringify(episodeState(T)), history: [], deliveries: [] }]);
    expect(await store.acks.acknowledgeAlert(account, alertId, { ...ackWrite('old link', T + 5, channel), episode: T - 3600 })).toEqual({ outcome: 'other_episode' });
    expect((await store.alerts.getAlert(account, alertId))!.acknowledgement).toBeNull();
    expect(await ackDeliveries()).toEqual([]);
    expect(await store.acks.acknowledgeAlert(account, alertId, { ...ackWrite('this link', T + 6, channel), episode: T })).toEqual({ outcome: 'acknowledged', notified: true });
  });

  it('tells the channels again when the acknowledgement had expired', async () => {
    await goAlerting();
    await store.acks.acknowledgeAlert(account, alertId, ackWrite('ann', T, channel, T + 600));
    expect(await store.acks.acknowledgeAlert(account, alertId, ackWrite('bob', T + 601, channel))).toEqual({ outcome: 'acknowledged', notified: true });
    expect(await ackDeliveries()).toHaveLength(2);
  });

  it('withdraws an acknowledgement with its history entry, and says when there is none', async () => {
    await goAlerting();
    const entry = { status: 'unacknowledged', value: null, metric: '', time: T + 5, channelId: null, reason: 'withdrawn by ann' };
    expect(await store.acks.withdrawAcknowledgement(account, alertId, entry)).toBe('not_acknowledged');
    await store.acks.acknowledgeAlert(account, alertId, ackWrite('ann', T, channel));
    expect(await store.acks.withdrawAcknowledgement(account, alertId, entry)).toBe('withdrawn');
    expect((await store.alerts.getAlert(account, alertId))!.acknowledgement).toBeNull();
    expect(await store.acks.withdrawAcknowledgement((await store.accounts.createAccount(null)).id, alertId, entry)).toBeNull();
    expect((await store.console.listTimeline(account, alertId, 0, 100))[0]).toMatchObject({ kind: 'unacknowledged', reason: 'withdrawn by ann' });
  });

  it('ends the acknowledgement when a round saves the recovery, and an expired one only if it is still the one read', async () => {
    await goAlerting();
    await store.acks.acknowledgeAlert(account, alertId, ackWrite('ann', T, channel, T + 60));
    // The round read the ack made at T - 1 (expired): a newer one (made at T) is kept.
    await store.evaluation.saveEvaluations([{ alertId, status: 'alerting', currentlyTriggeredMetrics: ['host.1.cpu'], evalState: null, history: [], deliveries: [], endAcknowledgementAt: T - 1 }]);
    expect((await store.alerts.getAlert(account, alertId))!.acknowledgement?.by).toBe('ann');
    await store.evaluation.saveEvaluations([{ alertId, status: 'alerting', currentlyTriggeredMetrics: ['host.1.cpu'], evalState: null, history: [], deliveries: [], endAcknowledgementAt: T }]);
    expect((await store.alerts.getAlert(account, alertId))!.acknowledgement).toBeNull();

    await store.acks.acknowledgeAlert(account, alertId, ackWrite('bob', T + 100, channel));
    const listed = (await store.evaluation.listAlertsForEvaluation((T + 200) * 1000)).find((a) => a.id === alertId)!;
    expect(listed).toMatchObject({ acknowledged: true, acknowledgedAt: T + 100 });
    await store.evaluation.saveEvaluations([{ alertId, status: 'healthy', currentlyTriggeredMetrics: [], evalState: null, history: [], deliveries: [] }]);
    expect((await store.alerts.getAlert(account, alertId))!.acknowledgement).toBeNull();
  });
});
