import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../../src/server/store/open-store.js';
import { runEvaluationCycle } from '../../../../src/server/evaluator/run-cycle.js';
import { RENDER_BATCH } from '../../../../src/server/evaluator/cycle-queries.js';
import { replicaLeases } from '../../../../src/server/evaluator/round-lease.js';
import { createGraphiteClient, type GraphiteClient } from '../../../../src/graphite/render-client.js';
import type { EvaluationAlert, EvaluationPaging } from '../../../../src/server/store/evaluation-store.js';
import type { Store } from '../../../../src/server/store/store.js';
import { LeaseLost, type EvaluationLease } from '../../../../src/server/store/evaluation-store.js';
import { makeSeries, startFakeRender, type RenderRequest } from '../../../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../../../helpers/memory-evaluation-store.js';
import { alertWrite, describeEachStore, storeBackends } from '../../../helpers/store-backends.js';

const NOW = 1_700_000_010;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** Series by name: cpu of host 1 and 4 high, host 2's beat silent, the rest quiet. */
const SERIES: Record<string, (number | null)[]> = {
  'host.1.cpu': [95, 96],
  'host.2.cpu': [10, 10],
  'host.3.cpu': [10, 10],
  'host.4.cpu': [97, 98],
  'host.1.mem': [30, 30],
  'host.2.beat': [null, null],
  'host.3.beat': [1, 1],
};

/** A fake render endpoint answering SERIES (optionally after `hold` resolves), and a client of it. */
async function render(hold?: () => Promise<void>) {
  const fake = await startFakeRender(async (request) => {
    await hold?.();
    return { series: request.targets.flatMap((target) => (SERIES[target] ? [makeSeries(target, SERIES[target]!, NOW, 30)] : [])) };
  });
  closers.push(fake.close);
  return { fake, client: createGraphiteClient({ baseUrl: fake.url }) };
}

/** Each distinct query asked, with how many times: `target from maxDataPoints`. */
function askedCounts(requests: RenderRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests) {
    for (const target of request.targets) {
      const key = `${target} ${request.from} ${request.maxDataPoints ?? ''}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** Nine alerts whose queries repeat across pages of two: cpu of hosts 1 and 4 on pages 1, 3 and 5, a beat on 2 and 4. */
const ALERTS = [
  { name: 'cpu1', metric: 'host.1.cpu' },
  { name: 'cpu2', metric: 'host.2.cpu' },
  { name: 'beat2', metric: 'host.2.beat', alertCriteria: { type: 'missing' as const, time_period: 5 } },
  { name: 'cpu3', metric: 'host.3.cpu' },
  { name: 'cpu1-again', metric: 'host.1.cpu' },
  { name: 'composite', metric: 'host.1.cpu', additionalCriteria: { b: { type: 'below' as const, below_value: 40, metric: 'host.1.mem' } }, expression: 'a && b' },
  { name: 'beat2-again', metric: 'host.2.beat', alertCriteria: { type: 'missing' as const, time_period: 5 } },
  { name: 'wild', metric: 'host.*.cpu' },
  { name: 'cpu4', metric: 'host.4.cpu' },
];

describeEachStore('an evaluation cycle listing in pages on %s', (backend) => {
  const opened: Store[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });

  async function storeWithAlerts() {
    const store = await backend.openStore();
    opened.push(store);
    const account = await store.accounts.createAccount('ops@example.com');
    const channel = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/x', autoResolve: false });
    for (const alert of ALERTS) await store.alerts.createAlert(account.id, alertWrite(channel.id, alert));
    return { store, account: account.id };
  }

  /** Each alert's status, triggered metrics and history by name, after the cycles so far. */
  async function outcome(store: Store, account: string) {
    const byName: Record<string, unknown> = {};
    for (const alert of await store.evaluation.listAlertsForEvaluation(NOW * 1000)) {
      const history = await store.history.searchHistory(account, { alertIds: [alert.id], since: 0, status: null, value: null });
      byName[alert.name] = {
        status: alert.status,
        triggered: alert.currentlyTriggeredMetrics,
        // Channel ids differ from store to store: the state names the one channel as "hook".
        evalState: alert.evalState?.replaceAll(alert.notificationChannels[0] ?? '-', 'hook'),
        history: history.map((entry) => ({ ...entry, id: undefined, alertId: undefined, alert_id: undefined })),
      };
    }
    return byName;
  }

  it('lists in pages the same alerts, in the same order and snapshot, as in one', async () => {
    const { store } = await storeWithAlerts();
    const lease: EvaluationLease = await store.evaluation.acquireEvaluationLeases('replica-a', 60_000);
    const whole = await store.evaluation.listAlertsForEvaluation(NOW * 1000, lease);
    const pages: EvaluationAlert[][] = [];
    const paging: EvaluationPaging = { size: 4, onPage: (alerts) => void pages.push(alerts) };
    expect(await store.evaluation.listAlertsForEvaluation(NOW * 1000, lease, paging)).toEqual([]);
    expect(pages.map((page) => page.length)).toEqual([4, 4, 1]);
    expect(pages.flat()).toEqual(whole);
  });

  it('asks each distinct query once in a cycle of pages, though alerts on several pages share it, and judges as a cycle of one page does', async () => {
    const paged = await storeWithAlerts();
    const single = await storeWithAlerts();
    const pagedRender = await render();
    const singleRender = await render();

    const pagedReport = await runEvaluationCycle({ store: paged.store.evaluation, graphite: pagedRender.client, now: () => NOW * 1000, pageSize: 2 });
    const singleReport = await runEvaluationCycle({ store: single.store.evaluation, graphite: singleRender.client, now: () => NOW * 1000, pageSize: 1_000 });

    const asked = askedCounts(pagedRender.fake.requests);
    expect([...asked.values()].every((count) => count === 1)).toBe(true);
    expect([...asked.keys()].sort()).toEqual([...askedCounts(singleRender.fake.requests).keys()].sort());
    // A page's partial requests wait for the next page's queries: no more requests than one page would send.
    expect(pagedRender.fake.requests).toHaveLength(singleRender.fake.requests.length);
    // The two stores' alerts have their own ids: the changed alerts are compared by name and transition.
    const figures = ({ durationMs: _ms, changed, ...rest }: typeof pagedReport) => ({ ...rest, changed: changed.map(({ alertName, from, to }) => ({ alertName, from, to })) });
    const pagedFigures = figures(pagedReport);
    const singleFigures = figures(singleReport);
    expect(pagedFigures).toEqual(singleFigures);
    expect(pagedFigures).toMatchObject({ alerts: 9, failedQueries: 0, transitions: 7, notifications: 7 });
    expect(await outcome(paged.store, paged.account)).toEqual(await outcome(single.store, single.account));
    expect(await outcome(paged.store, paged.account)).toMatchObject({ cpu1: { status: 'alerting' }, 'cpu1-again': { status: 'alerting' }, cpu2: { status: 'healthy' } });
  });
});

// Leases are PostgreSQL's only (SQLite is one node's file: its lease is on everything, its saves not fenced).
const postgresBackend = storeBackends().find((backend) => backend.name === 'postgres')!;
describe.skipIf(postgresBackend.skip)('a PostgreSQL replica that lost its lease in the middle of a paged cycle', () => {
  afterAll(() => postgresBackend.dispose());
  it('saves and notifies nothing', async () => {
    const dbUrl = await postgresBackend.createDb();
    const [store, other] = [await openStore(dbUrl), await openStore(dbUrl)];
    closers.push(() => store.close(), () => other.close());
    const account = await store.accounts.createAccount('ops@example.com');
    const channel = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/x', autoResolve: false });
    for (const alert of ALERTS) await store.alerts.createAlert(account.id, alertWrite(channel.id, alert));

    // The render answers wait until another replica has taken every partition from this one (its lease expired).
    let takenOver: Promise<void> | undefined;
    const takeOver = async () => {
      for (;;) {
        const lease = await other.evaluation.acquireEvaluationLeases('b', 60_000);
        if (lease.tokens!.size === 64) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const { client } = await render(() => (takenOver ??= takeOver()));
    const leases = replicaLeases(store.evaluation, { replica: 'a', ttlMs: 300 });
    await expect(runEvaluationCycle({ store: store.evaluation, leases, graphite: client, now: () => NOW * 1000, pageSize: 2 })).rejects.toBeInstanceOf(LeaseLost);

    const listed = await store.evaluation.listAlertsForEvaluation(NOW * 1000);
    expect(listed.map((alert) => alert.status)).toEqual(ALERTS.map(() => 'healthy'));
    expect(listed.every((alert) => alert.evalState === null)).toBe(true);
    expect(await store.history.searchHistory(account.id, { alertIds: [], since: 0, status: null, value: null })).toEqual([]);
    expect(await store.outbox.claimDueDeliveries({ worker: 'probe', now: Date.now() + 86_400_000, leaseMs: 60_000, limit: 10 })).toEqual([]);
  });
});

it('judges an alert of a later page at once when the query it shares was answered before that page came', async () => {
  let answers = 0;
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (release = resolve));
  /** Hands the second page over only once the first page's answers are in. */
  class SlowPages extends MemoryEvaluationStore {
    override async listAlertsForEvaluation(now?: number, lease?: EvaluationLease, paging?: EvaluationPaging) {
      const alerts = await super.listAlertsForEvaluation(now, lease);
      for (let from = 0; from < alerts.length; from += paging!.size) {
        if (from > 0) await answered;
        await paging!.onPage(alerts.slice(from, from + paging!.size));
      }
      return [];
    }
  }
  const store = new SlowPages();
  store.channels.set('ch1', { id: 'ch1', type: 'webhook', description: 'hook', destination: 'http://127.0.0.1:9/x', autoResolve: false });
  // A first page of a whole request's worth of queries (a page's last partial request waits for the next page).
  store.addAlert({ id: 'first', metric: 'host.1.cpu', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'] });
  for (let i = 1; i < RENDER_BATCH; i += 1) store.addAlert({ id: `quiet${i}`, metric: `quiet.${i}.cpu`, alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'] });
  store.addAlert({ id: 'second', metric: 'host.1.cpu', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'] });
  const { fake, client } = await render();
  const counting: GraphiteClient = {
    ...client,
    renderEach: (queries, onResult, cycle) =>
      client.renderEach(queries, (index, result) => {
        onResult(index, result);
        if ((answers += 1) === 1) release();
      }, cycle),
  };

  const report = await runEvaluationCycle({ store, graphite: counting, now: () => NOW * 1000, pageSize: RENDER_BATCH });
  expect(fake.requests).toHaveLength(1);
  expect([...askedCounts(fake.requests)].filter(([key]) => key.startsWith('host.1.cpu '))).toEqual([[expect.any(String), 1]]);
  expect(report).toMatchObject({ alerts: RENDER_BATCH + 1, queries: RENDER_BATCH, transitions: 2 });
  expect(store.alerts.get('first')!.status).toBe('alerting');
  expect(store.alerts.get('second')!.status).toBe('alerting');
});

it('spends one budget of timeout splits for the whole cycle, however many pages ask Graphite', async () => {
  const store = new MemoryEvaluationStore();
  store.channels.set('ch1', { id: 'ch1', type: 'webhook', description: 'hook', destination: 'http://127.0.0.1:9/x', autoResolve: false });
  // Three pages, each a whole request of distinct targets; every request times out.
  for (let i = 0; i < 3 * RENDER_BATCH; i += 1) {
    store.addAlert({ id: `a${i}`, metric: `slow.${i}.cpu`, alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'] });
  }
  const fake = await startFakeRender(() => ({ series: [], delayMs: 5_000 }));
  closers.push(fake.close);
  // The fake counts a request once it has read it, in this same process: a time limit shorter than a busy machine's
  // stall of the event loop would abort a request before the fake saw it, and the count would come up short.
  const client = createGraphiteClient({ baseUrl: fake.url, timeoutMs: 1_000, timeoutSplitBudget: 2 });

  const report = await runEvaluationCycle({ store, graphite: client, now: () => NOW * 1000, pageSize: RENDER_BATCH });
  expect(report).toMatchObject({ alerts: 3 * RENDER_BATCH, failedQueries: 3 * RENDER_BATCH });
  // Three requests, and two splits (two requests each) in all: a budget per page would have allowed six.
  expect(fake.requests).toHaveLength(3 + 2 * 2);
});
