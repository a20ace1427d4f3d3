import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_CHANNEL, UniqueViolation, type AlertWrite, type Store } from '../../../../src/server/store/store.js';
import { alertWrite, describeEachStore } from '../../../helpers/store-backends.js';

/** One suite, every backend: the Store's contract is the same on SQLite and PostgreSQL. */
describeEachStore('the $name store', (backend) => {
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

  it('gives a new account an Email me channel addressed to its email', async () => {
    const [channel] = await store.channels.findChannelsByRefs(account, [DEFAULT_CHANNEL]);
    expect(channel).toMatchObject({ type: 'email', destination: 'ops@example.com', autoResolve: false });
    const anonymous = await store.accounts.createAccount(null);
    expect((await store.channels.findChannelsByRefs(anonymous.id, [DEFAULT_CHANNEL]))[0]?.destination).toBe('');
  });

  it('stores API keys hashed and finds the account by key, until revoked', async () => {
    const record = await store.accounts.addApiKey(account, 'plain-key');
    expect((await store.accounts.findAccountByKey('plain-key'))?.id).toBe(account);
    expect(await store.accounts.findAccountByKey('other')).toBeNull();
    expect(JSON.stringify(await store.accounts.listApiKeys())).not.toContain('plain-key');
    expect(await store.accounts.revokeApiKey(record.id)).toBe(true);
    expect(await store.accounts.findAccountByKey('plain-key')).toBeNull();
    expect((await store.accounts.findApiKey('plain-key'))?.revokedAt).toEqual(expect.any(String));
    expect(await store.accounts.revokeApiKey('nope')).toBe(false);
  });

  it('throws UniqueViolation for a second alert of one name in one account only', async () => {
    await store.alerts.createAlert(account, alert());
    await expect(store.alerts.createAlert(account, alert())).rejects.toBeInstanceOf(UniqueViolation);
    const other = await store.accounts.createAccount(null);
    const otherEmail = (await store.channels.findChannelsByRefs(other.id, [DEFAULT_CHANNEL]))[0]!.id;
    await expect(store.alerts.createAlert(other.id, alert({ notificationChannels: [otherEmail] }))).resolves.toMatchObject({ name: 'cpu' });
  });

  it('starts alerts healthy with no triggered metrics and no evaluator state', async () => {
    const created = await store.alerts.createAlert(account, alert());
    expect(created).toMatchObject({ status: 'healthy', currentlyTriggeredMetrics: [], evalState: null, mutedUntil: null });
  });

  it('lists every account\'s alerts for evaluation with their channel ids, muted by their schedules at the time asked', async () => {
    const schedule = await store.schedules.createSchedule(account, { name: 'w', startTime: '01:00', duration: 5, timezone: 'UTC', repeat: ['mon'], anchor: 0 });
    const hook = await store.channels.createChannel(account, { type: 'webhook', description: 'hook', destination: 'https://x', autoResolve: false });
    await store.alerts.createAlert(account, alert({ notificationChannels: [hook.id, emailMe], scheduledMutes: [schedule.id] }));
    const other = await store.accounts.createAccount(null);
    const otherEmail = (await store.channels.findChannelsByRefs(other.id, [DEFAULT_CHANNEL]))[0]!.id;
    await store.alerts.createAlert(other.id, alert({ name: 'theirs', notificationChannels: [otherEmail] }));
    const monday = Date.parse('2026-11-23T01:02:00Z');
    const listed = await store.evaluation.listAlertsForEvaluation(monday);
    expect(listed.map((a) => [a.name, a.accountId])).toEqual([['cpu', account], ['theirs', other.id]]);
    expect(listed[0]!.notificationChannels).toEqual([hook.id, emailMe]);
    expect(listed.map((a) => a.muted)).toEqual([true, false]);
    expect((await store.evaluation.listAlertsForEvaluation(monday + 10 * 60_000)).map((a) => a.muted)).toEqual([false, false]);
    // Muted by hand: until its end, judged at the time asked, not at the time of the read.
    await store.alerts.setMutedUntil(other.id, { ids: [], search: null }, monday + 60_000);
    expect((await store.evaluation.listAlertsForEvaluation(monday)).map((a) => a.muted)).toEqual([true, true]);
    expect((await store.evaluation.listAlertsForEvaluation(monday + 60_000)).map((a) => a.muted)).toEqual([true, false]);
  });

  it('saves an evaluation result, which a read and the next round give back as the stored text, and nothing for an alert deleted meanwhile', async () => {
    const created = await store.alerts.createAlert(account, alert());
    const state = JSON.stringify({ since: 5, series: { a: [1, 2] } });
    const result = { alertId: created.id, status: 'alerting' as const, currentlyTriggeredMetrics: ['host.a.cpu'], evalState: state, history: [], deliveries: [] };
    await store.evaluation.saveEvaluations([result]);
    expect(await store.alerts.getAlert(account, created.id)).toMatchObject({
      status: 'alerting',
      currentlyTriggeredMetrics: ['host.a.cpu'],
      evalState: state,
    });
    expect((await store.evaluation.listAlertsForEvaluation(Date.now())).find((a) => a.id === created.id)).toMatchObject({ status: 'alerting', evalState: state });
    await store.alerts.deleteAlert(account, created.id);
    await store.evaluation.saveEvaluations([{ ...result, status: 'healthy', currentlyTriggeredMetrics: [], evalState: null }]);
    expect(await store.alerts.getAlert(account, created.id)).toBeNull();
  });

  it('appends history in the alert\'s account and drops entries of deleted alerts', async () => {
    const created = await store.alerts.createAlert(account, alert());
    await store.history.appendHistory([
      { alertId: created.id, status: 'alerting', value: 95, time: 1000, metric: 'host.a.cpu' },
      { alertId: created.id, status: 'recovered', value: 10, time: 2000, metric: 'host.a.cpu' },
      { alertId: 'gone', status: 'alerting', value: 1, time: 3000, metric: 'x' },
    ]);
    const entries = await store.history.searchHistory(account, { alertIds: [], since: 0, status: null, value: null });
    expect(entries.map((e) => [e.status, e.time])).toEqual([['recovered', 2000], ['alerting', 1000]]);
    const other = await store.accounts.createAccount(null);
    expect(await store.history.searchHistory(other.id, { alertIds: [], since: 0, status: null, value: null })).toEqual([]);
  });

  it('saves a round of evaluations with their history in one go, dropping alerts deleted meanwhile', async () => {
    const kept = await store.alerts.createAlert(account, alert({ name: 'kept' }));
    const gone = await store.alerts.createAlert(account, alert({ name: 'gone' }));
    await store.alerts.deleteAlert(account, gone.id);
    await store.evaluation.saveEvaluations([
      { alertId: kept.id, status: 'alerting', currentlyTriggeredMetrics: ['m.1'], evalState: JSON.stringify({ k: 1 }), history: [{ status: 'alerting', value: 3, time: 10, metric: 'm.1' }], deliveries: [] },
      { alertId: gone.id, status: 'alerting', currentlyTriggeredMetrics: [], evalState: null, history: [{ status: 'alerting', value: 1, time: 10, metric: 'x' }], deliveries: [] },
    ]);
    expect(await store.alerts.getAlert(account, kept.id)).toMatchObject({ status: 'alerting', evalState: JSON.stringify({ k: 1 }) });
    const entries = await store.history.searchHistory(account, { alertIds: [], since: 0, status: null, value: null });
    expect(entries).toEqual([{ alertId: kept.id, status: 'alerting', value: 3, time: 10, metric: 'm.1' }]);
  });

  it('sets muted_until on a selection in one transaction, changing nothing when an id is unknown', async () => {
    const a = await store.alerts.createAlert(account, alert({ name: 'a' }));
    const result = await store.alerts.setMutedUntil(account, { ids: [a.id, 'missing'], search: null }, 123);
    expect(result.missing).toEqual(['missing']);
    expect((await store.alerts.getAlert(account, a.id))?.mutedUntil).toBeNull();
    await store.alerts.setMutedUntil(account, { ids: [], search: null }, 456);
    expect((await store.alerts.getAlert(account, a.id))?.mutedUntil).toBe(456);
  });

  it('enforces per-account uniqueness of channel descriptions, schedule names and alert renames', async () => {
    await store.channels.createChannel(account, { type: 'webhook', description: 'hook', destination: 'https://x', autoResolve: false });
    const other = await store.channels.createChannel(account, { type: 'webhook', description: 'other', destination: 'https://y', autoResolve: false });
    await expect(
      store.channels.createChannel(account, { type: 'slack', description: 'hook', destination: 'https://z', autoResolve: false }),
    ).rejects.toMatchObject({ name: 'UniqueViolation', field: 'description', value: 'hook' });
    await expect(
      store.channels.updateChannel(account, other.id, { type: 'webhook', description: 'hook', destination: 'https://y', autoResolve: false }),
    ).rejects.toBeInstanceOf(UniqueViolation);
    const schedule = { name: 'nightly', startTime: '01:00', duration: 5, timezone: 'UTC', repeat: [] as never[], anchor: 0 };
    await store.schedules.createSchedule(account, schedule);
    await expect(store.schedules.createSchedule(account, schedule)).rejects.toMatchObject({ field: 'name', value: 'nightly' });
    await store.alerts.createAlert(account, alert({ name: 'a' }));
    const b = await store.alerts.createAlert(account, alert({ name: 'b' }));
    await expect(store.alerts.updateAlert(account, b.id, alert({ name: 'a' }))).rejects.toBeInstanceOf(UniqueViolation);
    expect((await store.alerts.getAlert(account, b.id))?.name).toBe('b');
  });

  it('searches alerts by name, metric or channel description, case-insensitively and literally, oldest first, in pages', async () => {
    const hook = await store.channels.createChannel(account, { type: 'webhook', description: 'Team_Pager', destination: 'https://x', autoResolve: false });
    const created = [];
    for (const name of ['Disk 100%', 'disk io', 'cpu', 'memory']) {
      created.push(await store.alerts.createAlert(account, alert({ name, metric: `host.${name.length}.x`, notificationChannels: name === 'memory' ? [hook.id] : [emailMe] })));
    }
    const search = async (text: string, page = 1, max = 10) =>
      store.alerts.searchAlerts(account, { names: [], ids: [], search: text, page, max });
    expect((await search('DISK')).items.map((a) => a.name)).toEqual(['Disk 100%', 'disk io']);
    expect((await search('0%')).items.map((a) => a.name)).toEqual(['Disk 100%']);
    expect((await search('%')).items.map((a) => a.name)).toEqual(['Disk 100%']);
    expect((await search('team_p')).items.map((a) => a.name)).toEqual(['memory']);
    expect((await search('_')).items.map((a) => a.name)).toEqual(['memory']);
    const first = await store.alerts.searchAlerts(account, { names: [], ids: [], search: null, page: 1, max: 3 });
    expect(first.items.map((a) => a.name)).toEqual(['Disk 100%', 'disk io', 'cpu']);
    expect(first.nextPage).toBe(true);
    const second = await store.alerts.searchAlerts(account, { names: [], ids: [], search: null, page: 2, max: 3 });
    expect(second.items.map((a) => a.name)).toEqual(['memory']);
    expect(second.nextPage).toBe(false);
    const orred = await store.alerts.searchAlerts(account, { names: ['cpu'], ids: [created[3]!.id], search: null, page: 1, max: 10 });
    expect(orred.items.map((a) => a.name)).toEqual(['cpu', 'memory']);
    const anded = await store.alerts.searchAlerts(account, { names: ['cpu', 'memory'], ids: [], search: 'mem', page: 1, max: 10 });
    expect(anded.items.map((a) => a.name)).toEqual(['memory']);
    // A selector is the union of its ids and its search, as a mute applies it.
    const selected = await store.alerts.setMutedUntil(account, { ids: [created[2]!.id], search: 'disk' }, 1_900_000_000_000);
    expect(selected).toEqual({ ids: [created[0]!.id, created[1]!.id, created[2]!.id], missing: [] });
    expect((await store.alerts.getAlert(account, created[0]!.id))?.mutedUntil).toBe(1_900_000_000_000);
    expect((await store.alerts.getAlert(account, created[3]!.id))?.mutedUntil).toBeNull();
  });

  it('keeps an alert\'s channels and schedules in the given order, without duplicates', async () => {
    const hooks = [];
    for (const description of ['h1', 'h2', 'h3']) {
      hooks.push((await store.channels.createChannel(account, { type: 'webhook', description, destination: 'https://x', autoResolve: true })).id);
    }
    const s1 = await store.schedules.createSchedule(account, { name: 's1', startTime: '01:00', duration: 5, timezone: 'UTC', repeat: ['mon', 'tue'], anchor: 7 });
    const s2 = await store.schedules.createSchedule(account, { name: 's2', startTime: '02:00', duration: 5, timezone: 'Europe/Paris', repeat: [], anchor: 1_700_000_000_000 });
    const created = await store.alerts.createAlert(account, alert({ notificationChannels: [hooks[2]!, hooks[0]!, hooks[2]!], scheduledMutes: [s2.id, s1.id] }));
    expect(created.notificationChannels).toEqual([hooks[2], hooks[0]]);
    expect(created.scheduledMutes).toEqual([s2.id, s1.id]);
    const updated = await store.alerts.updateAlert(account, created.id, alert({ notificationChannels: [hooks[1]!], scheduledMutes: [s1.id] }));
    expect(updated).toMatchObject({ notificationChannels: [hooks[1]], scheduledMutes: [s1.id] });
    expect(await store.schedules.getSchedule(account, s1.id)).toMatchObject({ repeat: ['mon', 'tue'], anchor: 7, alerts: [created.id] });
    expect(await store.schedules.getSchedule(account, s2.id)).toMatchObject({ anchor: 1_700_000_000_000, alerts: [] });
    expect(await store.alerts.updateAlert(account, 'missing', alert({ name: 'x' }))).toBeNull();
  });

  it('deletes a channel from its alerts, and gives an alert left without channels Email me back', async () => {
    const hook = await store.channels.createChannel(account, { type: 'webhook', description: 'hook', destination: 'https://x', autoResolve: false });
    const only = await store.alerts.createAlert(account, alert({ name: 'only', notificationChannels: [hook.id] }));
    const both = await store.alerts.createAlert(account, alert({ name: 'both', notificationChannels: [hook.id, emailMe] }));
    const other = await store.accounts.createAccount(null);
    expect(await store.channels.deleteChannel(other.id, hook.id)).toBeNull();
    expect(await store.channels.deleteChannel(account, hook.id)).toEqual({ alertsChanged: 2 });
    expect((await store.alerts.getAlert(account, only.id))?.notificationChannels).toEqual([emailMe]);
    expect((await store.alerts.getAlert(account, both.id))?.notificationChannels).toEqual([emailMe]);
    expect(await store.channels.getChannel(account, hook.id)).toBeNull();
    expect(await store.channels.deleteChannel(account, hook.id)).toBeNull();
  });

  it('searches channels (OR of filters) and schedules, in creation order and pages', async () => {
    await store.channels.createChannel(account, { type: 'pagerduty', description: 'pd', destination: 'k', autoResolve: true });
    await store.channels.createChannel(account, { type: 'slack', description: 'sl', destination: 'https://s', autoResolve: false });
    const page = await store.channels.searchChannels(account, { types: ['slack'], descriptions: [DEFAULT_CHANNEL], ids: [], autoResolve: true, page: 1, max: 2 });
    expect(page.items.map((c) => c.description)).toEqual([DEFAULT_CHANNEL, 'pd']);
    expect(page.nextPage).toBe(true);
    expect(page.items[1]).toMatchObject({ type: 'pagerduty', autoResolve: true, lastError: null });
    const all = await store.channels.searchChannels(account, { types: [], descriptions: [], ids: [], autoResolve: null, page: 1, max: 10 });
    expect(all.items.map((c) => c.description)).toEqual([DEFAULT_CHANNEL, 'pd', 'sl']);
    const a = await store.schedules.createSchedule(account, { name: 'a', startTime: '01:00', duration: 5, timezone: 'UTC', repeat: [], anchor: 0 });
    const b = await store.schedules.createSchedule(account, { name: 'b', startTime: '01:00', duration: 5, timezone: 'UTC', repeat: [], anchor: 0 });
    const none = { names: [], ids: [], durations: [], startTimes: [], timezones: [], repeat: [], page: 1, max: 10 };
    const schedules = await store.schedules.searchSchedules(account, { ...none, names: ['b'], ids: [a.id] });
    expect(schedules.items.map((s) => s.id)).toEqual([a.id, b.id]);
    const weekly = await store.schedules.createSchedule(account, { name: 'weekly', startTime: '22:30', duration: 45, timezone: 'UTC+2', repeat: ['sat', 'sun'], anchor: 0 });
    expect((await store.schedules.searchSchedules(account, { ...none, repeat: ['sun'] })).items.map((s) => s.id)).toEqual([weekly.id]);
    expect((await store.schedules.searchSchedules(account, { ...none, durations: [45], timezones: ['UTC'] })).items.map((s) => s.id)).toEqual([a.id, b.id, weekly.id]);
    expect((await store.schedules.searchSchedules(account, { ...none, startTimes: ['22:30'] })).items.map((s) => s.id)).toEqual([weekly.id]);
    expect(await store.schedules.deleteSchedule(account, a.id)).toBe(true);
    expect(await store.schedules.getSchedulesByIds(account, [a.id, b.id])).toHaveLength(1);
  });

  it('filters history by alert, status and value, newest first with ties in insertion order reversed', async () => {
    const a = await store.alerts.createAlert(account, alert({ name: 'a' }));
    const b = await store.alerts.createAlert(account, alert({ name: 'b' }));
    await store.history.appendHistory([
      { alertId: a.id, status: 'alerting', value: 1.5, time: 100, metric: 'm' },
      { alertId: b.id, status: 'alerting', value: 2, time: 100, metric: 'm' },
      { alertId: a.id, status: 'recovered', value: null, time: 200, metric: 'm' },
    ]);
    const all = await store.history.searchHistory(account, { alertIds: [], since: 0, status: null, value: null });
    expect(all.map((e) => [e.alertId === a.id ? 'a' : 'b', e.time])).toEqual([['a', 200], ['b', 100], ['a', 100]]);
    expect(await store.history.searchHistory(account, { alertIds: [a.id], since: 150, status: null, value: null })).toEqual([
      { alertId: a.id, status: 'recovered', value: null, time: 200, metric: 'm' },
    ]);
    expect((await store.history.searchHistory(account, { alertIds: [], since: 0, status: 'alerting', value: 1.5 })).map((e) => e.alertId)).toEqual([a.id]);
  });

  it('gives a lone replica a lease on every alert, and saves under it', async () => {
    const created = await store.alerts.createAlert(account, alert());
    const lease = await store.evaluation.acquireEvaluationLeases('only-replica', 60_000);
    expect((await store.evaluation.listAlertsForEvaluation(Date.now(), lease)).map((a) => a.id)).toEqual([created.id]);
    await store.evaluation.saveEvaluations([{ alertId: created.id, status: 'alerting', currentlyTriggeredMetrics: [], evalState: null, history: [], deliveries: [] }], lease);
    expect((await store.alerts.getAlert(account, created.id))?.status).toBe('alerting');
  });

  it('answers readiness with its schema version and counts alerts by status', async () => {
    const readiness = await store.checkReadiness!();
    expect(readiness.schemaVersion).toBe(readiness.expectedSchemaVersion);
    const created = await store.alerts.createAlert(account, alert());
    await store.alerts.createAlert(account, alert({ name: 'other' }));
    await store.evaluation.saveEvaluations([{ alertId: created.id, status: 'alerting', currentlyTriggeredMetrics: [], evalState: null, history: [], deliveries: [] }]);
    expect(await store.alerts.countAlertsByStatus!()).toEqual({ alerting: 1, healthy: 1 });
  });

  it('keeps an account\'s metric prefixes, returned with the account of its key', async () => {
    await store.accounts.addApiKey(account, 'prefixed-key');
    expect((await store.accounts.findAccountByKey('prefixed-key'))?.metricPrefixes).toBeUndefined();
    await store.accounts.setMetricPrefixes(account, ['team1.', 'shared.team1.']);
    expect((await store.accounts.findAccountByKey('prefixed-key'))?.metricPrefixes).toEqual(['team1.', 'shared.team1.']);
  });
});
