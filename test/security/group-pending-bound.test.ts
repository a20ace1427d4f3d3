import { afterEach, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { startTestServer } from '../helpers/server.js';
import { describeEachStore } from '../helpers/store-backends.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// group_by and the per-account bound on pending deliveries. Before: the deliveries to a grouping channel were taken
// out of the round as group members before the bound was applied, and the closer made one `grouped` delivery per
// group without asking it, so one alert on 300 series (one group each) to a grouping channel whose destination never
// answers left 300 deliveries pending under a bound of 30 (10x), plus 300 member rows. After: waiting members and
// pending deliveries count against the same bound; members past it are refused with the same history entry and
// the same /metrics counter, and the other tenant's page goes out at once.

const HOSTILE = 'hostile-group-tenant';
const VICTIM = 'victim-group-tenant';
const BOUND = 30;
const SERIES = 300;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describeEachStore('group_by under the pending-deliveries bound', (backend) => {
  it("counts group members and grouped deliveries against the account's bound, refusing the rest visibly", async () => {
    const values: Record<string, number> = {};
    const render = await startFakeRender((request) => ({
      series: request.targets.flatMap((target) => {
        const now = Math.floor(Date.now() / 1000);
        const value = values[target] ?? 0;
        if (target !== 'flood.*.x') return [makeSeries(target, [value, value], now - 30, 30)];
        return Array.from({ length: SERIES }, (_, j) => makeSeries(`flood.host${j}.x`, [value, value], now - 30, 30));
      }),
    }));
    closers.push(render.close);
    const server = await startTestServer({
      db: await backend.createDb(),
      keys: [HOSTILE, VICTIM],
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.2,
      allowPrivateDestinations: true,
      quotas: { pendingDeliveries: BOUND },
      delivery: { pollMs: 50 },
    });
    closers.push(() => server.close());
    const hanging = await startWebhookReceiver(() => new Promise<number>(() => {}));
    closers.push(hanging.close);
    const prompt = await startWebhookReceiver();
    closers.push(prompt.close);

    const post = async (path: string, body: unknown, key: string) => {
      const created = await server.request('POST', path, body, { key });
      expect(created.status, created.text).toBe(201);
      return created.body as { id: string };
    };
    // One group per host, each message due at once.
    await post('/v2/notifications/', { type: 'webhook', description: 'grouped', destination: `${hanging.url}/hook`, group_by: { nodes: [1], wait_seconds: 0 } }, HOSTILE);
    const flood = await post('/v2/alerts/', { name: 'flood', metric: 'flood.*.x', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['grouped'] }, HOSTILE);
    await post('/v2/notifications/', { type: 'webhook', description: 'page', destination: `${prompt.url}/page` }, VICTIM);
    await post('/v2/alerts/', { name: 'victim', metric: 'victim.metric', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['page'] }, VICTIM);

    values['flood.*.x'] = 50;
    const timeline = async () => (await server.request('GET', `/v2/alerts/${flood.id}/timeline/`, undefined, { key: HOSTILE })).body.entries as { kind: string; reason: string }[];
    const refused = await until(
      async () => (await timeline()).filter((entry) => entry.kind === 'notification_suppressed'),
      (list) => list.length > 0,
    );
    expect(refused[0]!.reason).toContain(`outbox full: the account has ${BOUND} deliveries pending, its limit`);
    // The grouped messages of the admitted members are made (wait 0), and no more than the bound is ever waiting.
    const pending = await until(
      async () => (await server.request('GET', '/v2/deliveries/?state=pending&max=100', undefined, { key: HOSTILE })).body.deliveries as unknown[],
      (list) => list.length >= BOUND,
    );
    expect(pending.length).toBe(BOUND);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain(`alertform_deliveries_refused_total{reason="account_pending_limit"} ${SERIES - BOUND}`);

    const firedAt = Date.now();
    values['victim.metric'] = 50;
    const paged = await prompt.next(15_000);
    expect((paged.body as { metric: string }).metric).toBe('victim.metric');
    expect(Date.now() - firedAt).toBeLessThan(2_500);
    // Still no more than the bound once everything settled (the closer ran meanwhile).
    const after = await server.request('GET', '/v2/deliveries/?state=pending&max=100', undefined, { key: HOSTILE });
    expect(after.body.deliveries.length).toBe(BOUND);
  }, 120_000);
});
