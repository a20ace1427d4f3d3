import { afterEach, describe, expect, it } from 'vitest';
import { runEvaluationCycle } from '../../../../src/server/evaluator/run-cycle.js';
import { createGraphiteClient } from '../../../../src/graphite/render-client.js';
import { makeSeries, startFakeRender, type RenderReply } from '../../../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../../../helpers/memory-evaluation-store.js';

const NOW = 1_700_000_010;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** What the cycles wrote to the outbox of `store` from delivery number `from` on. */
function outboxOf(store: MemoryEvaluationStore, from = 0) {
  return store.outbox.slice(from).map((delivery) => ({ channel: delivery.channelId, notification: delivery.notification }));
}

/** Values per series name; the fake answers each target with the series whose names match it. */
async function graphiteWith(values: () => Record<string, (number | null)[]>, fail: (target: string) => RenderReply | null = () => null, end: () => number = () => NOW) {
  const fake = await startFakeRender((request) => {
    for (const target of request.targets) {
      const failure = fail(target);
      if (failure) return failure;
    }
    const series = Object.entries(values())
      .filter(([name]) => request.targets.some((t) => new RegExp(`^${t.replace(/\./g, '\\.').replace(/\*/g, '[^.]*')}$`).test(name)))
      .map(([name, data]) => makeSeries(name, data, end(), 30));
    return { series };
  });
  closers.push(fake.close);
  return { fake, client: createGraphiteClient({ baseUrl: fake.url }) };
}

function storeWithChannel() {
  const store = new MemoryEvaluationStore();
  store.channels.set('ch1', { id: 'ch1', type: 'webhook', description: 'hook', destination: 'http://127.0.0.1:9/x', autoResolve: false });
  return store;
}

describe('an evaluation cycle', () => {
  it('fires a wildcard alert, stores status, triggered metrics and history, and writes its notifications to the outbox', async () => {
    let data: Record<string, (number | null)[]> = { 'web.1.cpu': [10, 10], 'web.2.cpu': [95, 96], 'web.3.cpu': [97, 98] };
    const { client } = await graphiteWith(() => data);
    const store = storeWithChannel();
    store.addAlert({ id: 'cpu', metric: 'web.*.cpu', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'] });
    let woken = 0;
    const deps = { store, graphite: client, onDeliveriesWritten: () => (woken += 1), now: () => NOW * 1000 };

    const report = await runEvaluationCycle(deps);
    const sent = outboxOf(store);
    expect(woken).toBe(1);
    expect(report).toMatchObject({ alerts: 1, queries: 1, failedQueries: 0, transitions: 1, notifications: 1 });
    const alert = store.alerts.get('cpu')!;
    expect(alert.status).toBe('alerting');
    expect(alert.currentlyTriggeredMetrics).toEqual(['web.2.cpu', 'web.3.cpu']);
    expect(store.history.get('cpu')).toEqual([
      { status: 'alerting', value: 96, metric: 'web.2.cpu', time: NOW },
      { status: 'alerting', value: 98, metric: 'web.3.cpu', time: NOW },
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.channel).toBe('ch1');
    expect(sent[0]!.notification).toMatchObject({ event: 'alerting', triggered: [{ metric: 'web.2.cpu' }, { metric: 'web.3.cpu' }] });

    data = { 'web.1.cpu': [10, 10], 'web.2.cpu': [95, 20], 'web.3.cpu': [97, 30] };
    await runEvaluationCycle(deps);
    expect(alert.status).toBe('healthy');
    expect(alert.currentlyTriggeredMetrics).toEqual([]);
    expect(store.history.get('cpu')!.slice(2)).toEqual([
      { status: 'recovered', value: 20, metric: 'web.2.cpu', time: NOW },
      { status: 'recovered', value: 30, metric: 'web.3.cpu', time: NOW },
    ]);
    expect(outboxOf(store).map((s) => s.notification.event)).toEqual(['alerting', 'recovered']);
  });

  it('judges each alert once all its answers are in, whatever order they arrive in and however many alerts share them', async () => {
    // One request per target; the answer for db.load comes 200 ms after the others.
    const series = { 'db.load': [5, 5], 'db.mem': [95, 95], 'db.disk': [1, 1] };
    const fake = await startFakeRender((request) => ({
      series: Object.entries(series).filter(([name]) => request.targets.includes(name)).map(([name, values]) => makeSeries(name, values, NOW, 30)),
      delayMs: request.targets.includes('db.load') ? 200 : 0,
    }));
    closers.push(fake.close);
    const store = storeWithChannel();
    const add = (id: string, extra: object) =>
      store.addAlert({ id, metric: 'db.mem', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'], ...extra });
    add('mem', {});
    add('mem-again', {});
    add('mem-and-load', { additionalCriteria: { b: { type: 'above', above_value: 1, metric: 'db.load' } }, expression: 'a && b' });
    add('disk-or-load', { metric: 'db.disk', additionalCriteria: { b: { type: 'above', above_value: 1, metric: 'db.load' } }, expression: 'a || b' });
    const graphite = createGraphiteClient({ baseUrl: fake.url, maxTargetsPerRequest: 1 });
    const report = await runEvaluationCycle({ store, graphite, now: () => NOW * 1000 });
    expect(report).toMatchObject({ alerts: 4, queries: 3, failedQueries: 0, transitions: 4, notifications: 4 });
    for (const id of ['mem', 'mem-again', 'mem-and-load', 'disk-or-load']) expect([id, store.alerts.get(id)!.status]).toEqual([id, 'alerting']);
    expect(store.alerts.get('mem-and-load')!.currentlyTriggeredMetrics).toEqual(['db.mem', 'db.load']);
    expect(store.alerts.get('disk-or-load')!.currentlyTriggeredMetrics).toEqual(['db.load']);
  });

  it('keeps its state across a restart: no second notification within the backoff', async () => {
    // The data follows the clock: an instantaneous criterion reads the latest point of its 10-minute look-back.
    let at = NOW;
    const { client } = await graphiteWith(() => ({ 'db.load': [5, 5] }), undefined, () => at);
    const store = storeWithChannel();
    store.addAlert({ id: 'load', metric: 'db.load', alertCriteria: { type: 'above', above_value: 1 }, notificationChannels: ['ch1'], notificationType: ['every', 60] });
    await runEvaluationCycle({ store, graphite: client, now: () => NOW * 1000 });
    expect(outboxOf(store).map((s) => s.notification.event)).toEqual(['alerting']);
    // A new process: a fresh client over the same stored rows.
    at = NOW + 600;
    await runEvaluationCycle({ store, graphite: createGraphiteClient({ baseUrl: (await graphiteWith(() => ({ 'db.load': [5, 5] }), undefined, () => at)).fake.url }), now: () => (NOW + 600) * 1000 });
    expect(outboxOf(store, 1)).toEqual([]);
    at = NOW + 3600;
    await runEvaluationCycle({ store, graphite: client, now: () => (NOW + 3600) * 1000 });
    expect(outboxOf(store, 1).map((s) => s.notification.event)).toEqual(['reminder']);
  });

  it('isolates a failing query: other alerts of the same batch are judged, the failing one records query_failed', async () => {
    const { fake, client } = await graphiteWith(
      () => ({ 'a.ok': [50, 50], 'b.ok': [50, 50] }),
      (target) => (target.startsWith('broken') ? { status: 500, body: 'boom' } : null),
    );
    const store = storeWithChannel();
    store.addAlert({ id: 'a', metric: 'a.ok', alertCriteria: { type: 'above', above_value: 1 }, notificationChannels: ['ch1'] });
    store.addAlert({ id: 'b', metric: 'b.ok', alertCriteria: { type: 'above', above_value: 1 } });
    store.addAlert({ id: 'x', metric: 'broken.metric', alertCriteria: { type: 'above', above_value: 1 }, notificationChannels: ['ch1'], onQueryFailure: 'notify' });
    const report = await runEvaluationCycle({ store, graphite: client, now: () => NOW * 1000 });
    const sent = outboxOf(store);
    expect(report.failedQueries).toBe(1);
    expect(store.alerts.get('a')!.status).toBe('alerting');
    expect(store.alerts.get('b')!.status).toBe('alerting');
    expect(store.alerts.get('x')!.status).toBe('healthy');
    expect(store.history.get('x')).toEqual([{ status: 'query_failed', value: null, metric: 'broken.metric', time: NOW }]);
    expect(sent.map((s) => `${s.notification.alert.id}:${s.notification.event}`).sort()).toEqual(['a:alerting', 'x:query_failed']);
    expect(sent.find((s) => s.notification.event === 'query_failed')!.notification.failure).toBe('broken.metric: render answered HTTP 500');
    expect(fake.requests[0]!.targets).toHaveLength(3); // one batch, then split
  });

  it('judges composite alerts over several queries and sends nothing for a muted alert', async () => {
    const { client } = await graphiteWith(() => ({ 'app.errors': [9, 9], 'app.requests': [500, 500] }));
    const store = storeWithChannel();
    const composite = {
      metric: 'app.errors',
      alertCriteria: { type: 'above' as const, above_value: 5 },
      additionalCriteria: { b: { type: 'above' as const, above_value: 100, metric: 'app.requests' } },
      expression: 'a && b',
      notificationChannels: ['ch1'],
    };
    store.addAlert({ id: 'loud', ...composite });
    store.addAlert({ id: 'quiet', ...composite, muted: true });
    const report = await runEvaluationCycle({ store, graphite: client, now: () => NOW * 1000 });
    const sent = outboxOf(store);
    expect(report.queries).toBe(2); // the same queries of both alerts are fetched once
    expect(store.alerts.get('loud')!.currentlyTriggeredMetrics).toEqual(['app.errors', 'app.requests']);
    expect(store.alerts.get('quiet')!.status).toBe('alerting');
    expect(store.history.get('quiet')).toHaveLength(2);
    expect(sent.map((s) => s.notification.alert.id)).toEqual(['loud']);
    expect(sent[0]!.notification.conditions.map((c) => `${c.letter}:${c.state}`)).toEqual(['a:holds', 'b:holds']);
  });

  it('reads a missing criterion through a window query and a coarse 24 h query', async () => {
    const { fake, client } = await graphiteWith(() => ({ 'beat.a': [1, null] }));
    const store = storeWithChannel();
    store.addAlert({ id: 'beat', metric: 'beat.a', alertCriteria: { type: 'missing', time_period: 5 } });
    const report = await runEvaluationCycle({ store, graphite: client, now: () => NOW * 1000 });
    expect(report.queries).toBe(2);
    expect(fake.requests.map((r) => `${r.from} ${r.maxDataPoints}`).sort()).toEqual(['-1445min 48', '-6min null']);
    expect(store.alerts.get('beat')!.status).toBe('healthy'); // its last point is 30 s old: not missing
  });

  it('writes nothing when nothing changed', async () => {
    const { client } = await graphiteWith(() => ({ 'q.depth': [1, 1] }));
    const store = storeWithChannel();
    store.addAlert({ id: 'q', metric: 'q.depth', alertCriteria: { type: 'above', above_value: 10 } });
    const first = await runEvaluationCycle({ store, graphite: client, now: () => NOW * 1000 });
    const second = await runEvaluationCycle({ store, graphite: client, now: () => NOW * 1000 });
    expect(first.saved).toBe(1); // the initial state
    expect(second.saved).toBe(0);
  });
});
