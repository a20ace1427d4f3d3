import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { describeEachStore } from '../helpers/store-backends.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// Before: an alert could name any number of channels (997 turned one acknowledgement into 997 webhooks), an alert's
// acknowledgement could be set and withdrawn as fast as requests came (100 pairs: 99,700 outbox rows), and an
// account's pending deliveries had no bound. After: at most 20 channels per alert, escalation steps' included
// (400 naming the field; `validate` says it at file:line); at most 10 acknowledgement changes per alert in 10
// minutes (429 with Retry-After); past --max-pending-deliveries-per-account an account's new deliveries are refused,
// each saying so in its alert's history and counted on /metrics, while another tenant's pages go out on time.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const HOSTILE_KEY = 'hostile-amplifying-tenant-key';
const VICTIM_KEY = 'victim-paged-tenant-key-000000';

async function startTenants(db = ':memory:', pendingDeliveries?: number) {
  const values: Record<string, number> = {};
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, [values[target] ?? 0, values[target] ?? 0], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  closers.push(render.close);
  const server = await startTestServer({
    db,
    keys: [HOSTILE_KEY, VICTIM_KEY],
    graphiteUrl: render.url,
    evalIntervalSeconds: 0.2,
    allowPrivateDestinations: true,
    ...(pendingDeliveries ? { quotas: { pendingDeliveries } } : {}),
  });
  closers.push(() => server.close());
  return { server, values };
}

/** `count` webhook channels of the account, named `hook 0`... */
async function makeHooks(server: TestServer, key: string, url: (i: number) => string, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: `hook ${i}`, destination: url(i) }, { key });
    expect(created.status).toBe(201);
    names.push(`hook ${i}`);
  }
  return names;
}

const alertBody = (name: string, channels: string[], extra: object = {}) => ({
  name,
  metric: name,
  alert_criteria: { type: 'above', above_value: 1 },
  notification_channels: channels,
  notification_type: ['state_change'],
  ...extra,
});

describe('the channels of one alert', () => {
  it('are at most 20, escalation steps included: 400 naming the field, and validate says it at file:line', async () => {
    const { server } = await startTenants();
    const hooks = await makeHooks(server, HOSTILE_KEY, (i) => `https://hooks.example.com/${i}`, 25);
    const many = await server.request('POST', '/v2/alerts/', alertBody('many', hooks.slice(0, 21)), { key: HOSTILE_KEY });
    expect(many.status).toBe(400);
    expect(many.body.error.details[0].path).toBe('notification_channels');
    const escalated = await server.request(
      'POST',
      '/v2/alerts/',
      alertBody('escalated', hooks.slice(0, 15), { escalation: [{ after_minutes: 10, notification_channels: hooks.slice(15, 25) }] }),
      { key: HOSTILE_KEY },
    );
    expect(escalated.status).toBe(400);
    expect(escalated.body.error.details).toEqual([
      { path: 'escalation', message: "names 25 channels with notification_channels: an alert notifies at most 20, its escalation steps' included" },
    ]);
    expect((await server.request('POST', '/v2/alerts/', alertBody('twenty', hooks.slice(0, 20)), { key: HOSTILE_KEY })).status).toBe(201);

    const dir = mkdtempSync(join(tmpdir(), 'channel-cap-'));
    const channels = Array.from({ length: 21 }, (_, i) => `  - description: hook ${i}\n    type: webhook\n    destination: https://hooks.example.com/${i}\n`);
    writeFileSync(join(dir, 'channels.yaml'), `channels:\n${channels.join('')}`);
    const list = Array.from({ length: 21 }, (_, i) => `"hook ${i}"`).join(', ');
    writeFileSync(join(dir, 'alerts.yaml'), `alerts:\n  - name: many\n    metric: a.b\n    alert_criteria: {type: above, above_value: 1}\n    notification_channels: [${list}]\n`);
    const validated = await runCli(['validate', dir]);
    expect(validated.code).not.toBe(0);
    expect(validated.stdout + validated.stderr).toMatch(/alerts\.yaml:5:\d+.*notification_channels/);
  }, 90_000);
});

describe('acknowledgement changes of one alert', () => {
  it('are at most 10 in 10 minutes: the 11th is 429 with Retry-After, and sends nothing', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const { server, values } = await startTenants();
    const hooks = await makeHooks(server, HOSTILE_KEY, (i) => `${receiver.url}/hook/${i}`, 3);
    const created = await server.request('POST', '/v2/alerts/', alertBody('acked.metric', hooks), { key: HOSTILE_KEY });
    const id = created.body.id as string;
    values['acked.metric'] = 50;
    await until(() => server.request('GET', `/v2/alerts/${id}/`, undefined, { key: HOSTILE_KEY }), (r) => r.body.status === 'alerting');
    for (let i = 0; i < 5; i += 1) {
      expect((await server.request('POST', `/v2/alerts/${id}/ack/`, { by: 'loop' }, { key: HOSTILE_KEY })).status).toBe(200);
      expect((await server.request('DELETE', `/v2/alerts/${id}/ack/`, undefined, { key: HOSTILE_KEY })).status).toBe(200);
    }
    const refused = await server.request('POST', `/v2/alerts/${id}/ack/`, { by: 'loop' }, { key: HOSTILE_KEY });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toMatch(/changed 10 times in 10 minutes/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The 5 acknowledgements sent 15 deliveries (5 x 3 channels) and the refused one none.
    const deliveries = await server.request('GET', `/v2/deliveries/?alert_id=${id}&state=pending&state=delivered&state=dead&max=100`, undefined, { key: HOSTILE_KEY });
    expect(deliveries.body.deliveries.filter((d: { event: string }) => d.event === 'acknowledged')).toHaveLength(15);
  }, 60_000);
});

describeEachStore('the pending deliveries of one account', (backend) => {
  it("are bounded: past the bound new ones are refused with a reason in history and on /metrics, and another tenant's page goes out at once", async () => {
    const hanging = await startWebhookReceiver(() => new Promise<number>(() => {}));
    closers.push(hanging.close);
    const prompt = await startWebhookReceiver();
    closers.push(prompt.close);
    const { server, values } = await startTenants(await backend.createDb(), 30);
    const hooks = await makeHooks(server, HOSTILE_KEY, (i) => `${hanging.url}/hook/${i}`, 20);
    const first = (await server.request('POST', '/v2/alerts/', alertBody('flood.one', hooks), { key: HOSTILE_KEY })).body.id as string;
    const second = (await server.request('POST', '/v2/alerts/', alertBody('flood.two', hooks), { key: HOSTILE_KEY })).body.id as string;
    const victimHook = (await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'page', destination: `${prompt.url}/page` }, { key: VICTIM_KEY })).body;
    expect(victimHook.id).toBeTruthy();
    const victim = await server.request('POST', '/v2/alerts/', alertBody('victim.metric', ['page']), { key: VICTIM_KEY });
    expect(victim.status).toBe(201);

    // 40 deliveries wanted by the hostile account, none of which its far side ever answers: 30 fit.
    values['flood.one'] = 50;
    values['flood.two'] = 50;
    const suppressed = async () => {
      const entries = await Promise.all(
        [first, second].map(async (id) => (await server.request('GET', `/v2/alerts/${id}/timeline/`, undefined, { key: HOSTILE_KEY })).body.entries),
      );
      return entries.flat().filter((entry: { kind: string }) => entry.kind === 'notification_suppressed');
    };
    const refused = await until(suppressed, (list) => list.length >= 10);
    expect(refused).toHaveLength(10);
    expect(refused[0].reason).toBe('alerting: outbox full: the account has 30 deliveries pending, its limit');
    const pending = await server.request('GET', '/v2/deliveries/?state=pending&max=100', undefined, { key: HOSTILE_KEY });
    expect(pending.body.deliveries).toHaveLength(30);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('alertform_deliveries_refused_total{reason="account_pending_limit"} 10');

    const firedAt = Date.now();
    values['victim.metric'] = 50;
    const paged = await prompt.next(15_000);
    expect((paged.body as { metric: string }).metric).toBe('victim.metric');
    // One evaluation (every 200 ms) and one delivery: the hostile account's full outbox holds nothing of the victim's.
    expect(Date.now() - firedAt).toBeLessThan(2_500);
  }, 90_000);
});
