import { afterEach, describe, expect, it } from 'vitest';
import { runEvaluationCycle, type CycleFeed } from '../../../../src/server/evaluator/run-cycle.js';
import { createGraphiteClient } from '../../../../src/graphite/render-client.js';
import { makeSeries, startFakeRender } from '../../../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../../../helpers/memory-evaluation-store.js';

const NOW = 1_700_000_010;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A render endpoint that counts what it is asked and answers each target with one series of `value`. */
async function countingRender(value: number) {
  const asked: string[] = [];
  const fake = await startFakeRender((request) => {
    asked.push(...request.targets);
    return { series: request.targets.map((target) => makeSeries(target, [value, value], NOW, 30)) };
  });
  closers.push(fake.close);
  return { asked, client: createGraphiteClient({ baseUrl: fake.url }) };
}

function store() {
  const made = new MemoryEvaluationStore();
  made.channels.set('ch1', { id: 'ch1', type: 'webhook', description: 'hook', destination: 'http://127.0.0.1:9/x', autoResolve: false });
  made.addAlert({ id: 'streamed', metric: 'web.1.cpu', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'] });
  made.addAlert({ id: 'polled', metric: 'web.2.cpu', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'] });
  return made;
}

describe('a cycle with the stream as its feed', () => {
  it('judges a streamed alert on the feed with no render request, through the same save and outbox as a polled one', async () => {
    const { asked, client } = await countingRender(95);
    const made = store();
    const listed: string[][] = [];
    const feed: CycleFeed = {
      route: (alert) =>
        alert.id === 'streamed'
          ? { mode: 'stream', inputs: () => [{ result: { ok: true, series: [makeSeries('web.1.cpu', [99, 99], NOW, 30)] }, settleSeconds: 0 }] }
          : { mode: 'render' },
      listed: (ids) => listed.push([...ids].sort()),
    };
    const report = await runEvaluationCycle({ store: made, graphite: client, feed, now: () => NOW * 1000 });
    expect(asked).toEqual(['web.2.cpu']);
    expect(report).toMatchObject({ alerts: 2, transitions: 2 });
    expect(made.history.get('streamed')).toEqual([{ status: 'alerting', value: 99, metric: 'web.1.cpu', time: NOW }]);
    expect(made.history.get('polled')).toEqual([{ status: 'alerting', value: 95, metric: 'web.2.cpu', time: NOW }]);
    expect(made.outbox.map((delivery) => delivery.notification.alert.id).sort()).toEqual(['polled', 'streamed']);
    expect(listed).toEqual([['polled', 'streamed']]);
  });

  it('warms an alert from render (its raw path expressions), then judges it on what the feed makes of the answers', async () => {
    const { asked, client } = await countingRender(1);
    const made = store();
    let answers: unknown;
    const feed: CycleFeed = {
      route: (alert) =>
        alert.id === 'streamed'
          ? {
              mode: 'warm',
              queries: [{ target: 'web.1.*', fromMinutes: 3 }],
              inputs: (rendered) => {
                answers = rendered;
                return [{ result: { ok: true, series: [makeSeries('web.1.cpu', [97, 97], NOW, 30)] }, settleSeconds: 0 }];
              },
            }
          : { mode: 'render' },
    };
    await runEvaluationCycle({ store: made, graphite: client, feed, now: () => NOW * 1000 });
    expect(asked.sort()).toEqual(['web.1.*', 'web.2.cpu']);
    expect((answers as { ok: boolean }[]).map((answer) => answer.ok)).toEqual([true]);
    expect(made.alerts.get('streamed')!.status).toBe('alerting');
    expect(made.alerts.get('polled')!.status).toBe('healthy');
  });

  it('judges only the alerts asked for (a completed bucket), and lets go of nothing then', async () => {
    const { asked, client } = await countingRender(95);
    const made = store();
    let listedCalls = 0;
    const feed: CycleFeed = { route: () => ({ mode: 'render' }), listed: () => (listedCalls += 1) };
    const report = await runEvaluationCycle({ store: made, graphite: client, feed, only: new Set(['polled']), now: () => NOW * 1000 });
    expect(report.alerts).toBe(1);
    expect(asked).toEqual(['web.2.cpu']);
    expect(made.alerts.get('streamed')!.status).toBe('healthy');
    expect(made.alerts.get('polled')!.status).toBe('alerting');
    expect(listedCalls).toBe(0);
  });
});

describe('a cycle of many stream alerts in one page', () => {
  it('gives the event loop back while it judges them, and judges every one', async () => {
    const { asked, client } = await countingRender(1);
    const made = new MemoryEvaluationStore();
    for (let k = 0; k < 200; k += 1) made.addAlert({ id: `a${k}`, metric: `web.${k}.cpu`, alertCriteria: { type: 'above', above_value: 90 } });
    // Each alert's inputs cost a millisecond of CPU: 200 ms of judging in one page of 2,000.
    const busy = () => {
      const until = performance.now() + 1;
      while (performance.now() < until);
    };
    const feed: CycleFeed = {
      route: (alert) => ({ mode: 'stream', inputs: () => (busy(), [{ result: { ok: true, series: [makeSeries(alert.metric, [99, 99], NOW, 30)] }, settleSeconds: 0 }]) }),
    };
    // Turns of the event loop taken while the cycle runs (an HTTP answer or a carbon chunk would take the same).
    let turns = 0;
    let running = true;
    const turn = () => {
      if (!running) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    const report = await runEvaluationCycle({ store: made, graphite: client, feed, now: () => NOW * 1000 });
    running = false;
    expect(report).toMatchObject({ alerts: 200, transitions: 200 });
    expect(asked).toEqual([]);
    // Sliced at 10 ms: about 20 slices. All in one task, the loop would turn once or twice (the listing's awaits).
    expect(turns).toBeGreaterThanOrEqual(10);
  });
});
