import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ALERT_CHANNELS } from '../../src/model/escalation-rules.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// Issue 19, item 3. Before: one tenant's alert on 48 webhooks that accept and never answer took all 16 delivery
// slots for a whole attempt timeout, three times over, and another tenant's single webhook waited 30.5 s. After:
// an account is served half the slots and a destination a quarter, borrowing idle ones up to three quarters and a
// half, so a quarter always stays free for other accounts; a silent far side is given up on after 3 s to connect
// and 5 s to answer. The other tenant's page goes out at once.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const HOSTILE_KEY = 'hostile-tenant-key';
const VICTIM_KEY = 'victim-tenant-key';

async function startTenants() {
  const values: Record<string, number> = {};
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, [values[target] ?? 0, values[target] ?? 0], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  closers.push(render.close);
  // The default attempt timeout (10 s): what a production server has.
  const server = await startTestServer({ keys: [HOSTILE_KEY, VICTIM_KEY], graphiteUrl: render.url, evalIntervalSeconds: 0.2, allowPrivateDestinations: true });
  closers.push(() => server.close());
  return { server, values };
}

/** Alerts on `metric` notifying `hooks`, as many alerts as the per-alert channel cap (MAX_ALERT_CHANNELS) makes them. */
async function alertOn(server: TestServer, key: string, metric: string, hooks: string[]) {
  const names: string[] = [];
  for (const [i, destination] of hooks.entries()) {
    const created = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: `hook ${i}`, destination }, { key });
    expect(created.status).toBe(201);
    names.push(`hook ${i}`);
  }
  for (let first = 0; first < names.length; first += MAX_ALERT_CHANNELS) {
    const alert = await server.request(
      'POST',
      '/v2/alerts/',
      {
        name: `${metric} ${first / MAX_ALERT_CHANNELS}`,
        metric,
        alert_criteria: { type: 'above', above_value: 1 },
        notification_channels: names.slice(first, first + MAX_ALERT_CHANNELS),
        notification_type: ['state_change'],
      },
      { key },
    );
    expect(alert.status).toBe(201);
  }
}

describe("one tenant's hanging webhooks do not delay another tenant's page", () => {
  it.each([
    // The caps (borrowing included) of 16 slots: an account 12, a destination 8; 4 always stay for others.
    ['48 different hanging URLs', (url: string, i: number) => `${url}/hook/${i}`, 12],
    ['48 channels on one hanging URL', (url: string) => `${url}/hook`, 8],
    // More rows due before the victim's than a claim looks at: the hostile account's are passed over in the query.
    ['200 different hanging URLs', (url: string, i: number) => `${url}/hook/${i}`, 12],
  ])('pages the other tenant at once with %s', async (name, hookUrl, share) => {
    const hanging = await startWebhookReceiver(() => new Promise<number>(() => {}));
    closers.push(hanging.close);
    const prompt = await startWebhookReceiver();
    closers.push(prompt.close);
    const { server, values } = await startTenants();
    const count = Number(name.split(' ')[0]);
    await alertOn(server, HOSTILE_KEY, 'hostile.metric', Array.from({ length: count }, (_, i) => hookUrl(hanging.url, i)));
    await alertOn(server, VICTIM_KEY, 'victim.metric', [`${prompt.url}/page`]);

    // The hostile alert fires first: its 48 deliveries are older than the victim's, and its far side never answers.
    values['hostile.metric'] = 50;
    await hanging.next(10_000);
    const firedAt = Date.now();
    values['victim.metric'] = 50;
    const paged = await prompt.next(15_000);
    const waitedMs = Date.now() - firedAt;
    expect((paged.body as { metric: string }).metric).toBe('victim.metric');
    // The hostile account never held more than its cap of the 16 slots: the rest stayed free for the victim.
    expect(hanging.received.length).toBeLessThanOrEqual(share);
    // The victim's page waited for one evaluation (every 200 ms), not for a hanging attempt to time out (>= 5 s).
    expect(waitedMs).toBeLessThan(2_500);
  }, 60_000);
});
