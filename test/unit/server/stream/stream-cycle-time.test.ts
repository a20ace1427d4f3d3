import { afterEach, describe, expect, it } from 'vitest';
import { runEvaluationCycle } from '../../../../src/server/evaluator/run-cycle.js';
import { createGraphiteClient } from '../../../../src/graphite/render-client.js';
import { StreamIngest } from '../../../../src/stream/stream-ingest.js';
import { StreamEvaluator, type StreamAlert } from '../../../../src/server/stream/stream-evaluator.js';
import type { EvaluationAlert, EvaluationLease, EvaluationPaging } from '../../../../src/server/store/evaluation-store.js';
import { makeSeries, startFakeRender } from '../../../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../../../helpers/memory-evaluation-store.js';

const B = 1_800_000_000 - (1_800_000_000 % 30);
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A store whose listing takes `listingMs` of the shared clock (a loaded machine, a slow database). */
class SlowListingStore extends MemoryEvaluationStore {
  listingMs = 0;
  constructor(private readonly clock: { ms: number }) {
    super();
  }
  override async listAlertsForEvaluation(now?: number, lease?: EvaluationLease, paging?: EvaluationPaging): Promise<EvaluationAlert[]> {
    this.clock.ms += this.listingMs;
    return super.listAlertsForEvaluation(now, lease, paging);
  }
}

describe('a stream-judged alert in cycles whose listing crosses a second', () => {
  it('never judges a window that ends a bucket early: no false recovery right after a breach pages', async () => {
    const clock = { ms: (B - 60) * 1000 };
    // The warm-up's render: ten minutes of 0 (no timeouts) before the breach.
    const fake = await startFakeRender((request) => ({ series: request.targets.map((target) => makeSeries(target, new Array(54).fill(0), B - 70, 10)) }));
    closers.push(fake.close);
    const graphite = createGraphiteClient({ baseUrl: fake.url });
    const ingest = new StreamIngest<StreamAlert>({ cacheSize: 100, maxSeries: 100, maxPointsPerSeries: 1000 });
    const stream = new StreamEvaluator({ ingest, receiver: { lastConnectedAt: () => clock.ms }, judgeSoon: () => undefined, settleSeconds: 0, now: () => clock.ms });
    const store = new SlowListingStore(clock);
    store.addAlert({ id: 'timeouts', metric: 'pay.timeouts', alertCriteria: { type: 'above', above_value: 5 } });
    const cycle = () => runEvaluationCycle({ store, graphite, feed: stream, now: () => clock.ms });

    await cycle();
    expect(store.alerts.get('timeouts')!.status).toBe('healthy');
    // The stream: 0 until the breach, then 12 from B; the point at B+20 completes the breaching bucket.
    for (let t = B - 60; t <= B + 20; t += 10) {
      clock.ms = t * 1000 + 200;
      ingest.accept([{ path: 'pay.timeouts', value: t < B ? 0 : 12, timestamp: t }]);
    }
    clock.ms = (B + 20) * 1000 + 300;
    await cycle();
    expect(store.alerts.get('timeouts')!.status).toBe('alerting');
    // A scheduled cycle begins at B+30.9 s and lists for 400 ms: it reaches the alert in the next second.
    store.listingMs = 400;
    clock.ms = (B + 30) * 1000 + 900;
    await cycle();
    expect(store.history.get('timeouts')!.map((entry) => entry.status)).toEqual(['alerting']);
    expect(store.alerts.get('timeouts')!.status).toBe('alerting');
  });
});
