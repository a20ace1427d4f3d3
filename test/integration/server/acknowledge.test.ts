import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const PUBLIC_URL = 'https://alertform.example';
const MINUTE = 60_000;

// The whole loop on both stores: a fake render endpoint decides the value, a real webhook receiver gets the pages, the
// server's clock is moved by hand so that reminders (every 5 minutes) come without waiting.
describeEachStore('acknowledging on $name', (backend) => {
  // Starts at the wall clock: links are signed by the delivery service, whose clock is the wall clock.
  let clock = Date.now();
  let value = 0;
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let render: Awaited<ReturnType<typeof startFakeRender>>;
  let alertId: string;
  let calmId: string;
  const logLines: string[] = [];
  const bodies = () => receiver.received.filter((r) => r.path === '/hook').map((r) => r.body as Record<string, any>);
  /** What PagerDuty's Events API received (the receiver stands in for it at /pd). */
  const pagerduty = () => receiver.received.filter((r) => r.path.startsWith('/pd')).map((r) => r.body as Record<string, any>);
  const statuses = () => bodies().map((b) => b.status);
  /** Waits until the render endpoint was asked `count` more times: that many cycles ran with the clock as it is. */
  const cycles = async (count = 3) => {
    const target = render.requests.length + count;
    await until(async () => render.requests.length, (n) => n >= target);
  };
  const linkPath = (url: string) => url.slice(PUBLIC_URL.length);

  beforeAll(async () => {
    receiver = await startWebhookReceiver(() => 200);
    render = await startFakeRender((request) => ({
      // Only the disk alert's metric moves; `calm` stays at 0.
      series: request.targets.map((target) => {
        const v = target === 'web.disk' ? value : 0;
        return makeSeries(target, [v, v], Math.floor(clock / 1000) - 30, 30);
      }),
    }));
    server = await startTestServer({
      keys: ['ack-key', 'other-tenant-key'],
      db: await backend.createDb(),
      now: () => clock,
      logger: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }),
      notifierUrls: { pagerduty: `${receiver.url}/pd` },
      graphiteUrl: render.url,
      publicUrl: PUBLIC_URL,
      evalIntervalSeconds: 0.1,
      allowPrivateDestinations: true,
      delivery: { retry: { firstDelayMs: 100, maxDelayMs: 400, maxAgeMs: 3_600_000 }, timeoutMs: 2_000, pollMs: 50 },
    });
    await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    const pd = await server.request('POST', '/v2/notifications/', { type: 'pagerduty', description: 'pd', destination: 'pd-routing-key', auto_resolve: true });
    expect(pd.status).toBe(201);
    const make = async (name: string, metric: string) =>
      (
        await server.request('POST', '/v2/alerts/', {
          name,
          metric,
          alert_criteria: { type: 'above', above_value: 100 },
          notification_channels: ['hook', 'pd'],
          notification_type: ['every', 5],
        })
      ).body.id as string;
    alertId = await make('disk full', 'web.disk');
    calmId = await make('calm', 'calm.never');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await render?.close();
  });

  it('refuses to acknowledge an alert that is not alerting (409) and another account’s alert (404), with JSON errors', async () => {
    const healthy = await server.request('POST', `/v2/alerts/${calmId}/ack/`, { by: 'Ann' });
    expect(healthy.status).toBe(409);
    // The refusal names the alert's one state, as `alertform status` does: never judged is "not evaluated", not "healthy".
    expect(healthy.body.error).toMatchObject({ code: 'conflict', message: 'alert is not evaluated: only an alerting alert can be acknowledged' });
    const other = await server.request('POST', `/v2/alerts/${calmId}/ack/`, { by: 'Ann' }, { key: 'other-tenant-key' });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    const nobody = await server.request('POST', `/v2/alerts/${calmId}/ack/`, {});
    expect(nobody.status).toBe(400);
    expect(nobody.body.error.details).toEqual([{ path: 'by', message: 'is required' }]);
    const read = await server.request('GET', `/v2/alerts/${calmId}/`);
    expect(read.body.acknowledgement).toBeNull();
  });

  it('stops reminders once acknowledged, tells the channel exactly once, and a recovery ends the acknowledgement', async () => {
    value = 500;
    await until(async () => statuses(), (s) => s.includes('alerting'));
    const page = bodies().find((b) => b.status === 'alerting')!;
    expect(page.ack_url).toMatch(/^https:\/\/alertform\.example\/v2\/ack-links\/[\w-]+\.[\w-]+$/);

    clock += 6 * MINUTE;
    await until(async () => statuses(), (s) => s.filter((x) => x === 'alerting').length === 2);
    expect(bodies()[1]!.ack_url).toMatch(/\/v2\/ack-links\//);

    const acked = await server.request('POST', `/v2/alerts/${alertId}/ack/`, { by: 'Ann Oncall', note: 'replacing the disk', until: '2h' });
    expect(acked.status).toBe(200);
    const at = Math.floor(clock / 1000);
    expect(acked.body.acknowledgement).toEqual({ by: 'Ann Oncall', note: 'replacing the disk', at, until: at + 7200 });
    await until(async () => statuses(), (s) => s.includes('acknowledged'));
    const ack = bodies().find((b) => b.status === 'acknowledged')!;
    expect(ack.acknowledgement).toEqual({ by: 'Ann Oncall', note: 'replacing the disk', at, until: at + 7200 });

    // A second ack (a changed note) replaces the first but tells nobody again.
    const again = await server.request('POST', `/v2/alerts/${alertId}/ack/`, { by: 'Ann Oncall', note: 'new disk ordered' });
    expect(again.body.acknowledgement).toMatchObject({ note: 'new disk ordered', until: null });

    for (const minutes of [6, 6, 6]) {
      clock += minutes * MINUTE;
      await cycles();
    }
    const settled = await until(() => server.request('GET', '/v2/deliveries/?state=pending'), (r) => r.body.deliveries.length === 0);
    expect(settled.status).toBe(200);
    expect(statuses()).toEqual(['alerting', 'alerting', 'acknowledged']);

    value = 0;
    await until(async () => statuses(), (s) => s.includes('recovered'));
    const read = await server.request('GET', `/v2/alerts/${alertId}/`);
    expect(read.body).toMatchObject({ status: 'healthy', acknowledgement: null });
    const timeline = await server.request('GET', `/v2/alerts/${alertId}/timeline`);
    const kinds = timeline.body.entries.map((e: any) => [e.kind, e.reason]).filter(([kind]: string[]) => kind!.includes('acknowledged'));
    expect(kinds).toEqual([
      ['unacknowledged', 'recovered'],
      ['acknowledged', 'by Ann Oncall: new disk ordered'],
      ['acknowledged', `by Ann Oncall until ${new Date((at + 7200) * 1000).toISOString()}: replacing the disk`],
    ]);

    // A new episode pages again, with reminders.
    value = 500;
    await until(async () => statuses(), (s) => s.length === 5);
    clock += 6 * MINUTE;
    await until(async () => statuses(), (s) => s.length === 6);
    expect(statuses()).toEqual(['alerting', 'alerting', 'acknowledged', 'recovered', 'alerting', 'alerting']);
    expect(bodies().filter((b) => b.status === 'acknowledged')).toHaveLength(1);
    // PagerDuty: the same incident (dedup_key) triggered, acknowledged once, resolved, triggered again.
    await until(async () => pagerduty(), (events) => events.length === 6);
    const events = pagerduty().filter((e) => e.dedup_key === `alertform-${alertId}`);
    expect(events.map((e) => e.event_action)).toEqual(['trigger', 'trigger', 'acknowledge', 'resolve', 'trigger', 'trigger']);
    expect(events[2]).toEqual({ routing_key: 'pd-routing-key', event_action: 'acknowledge', dedup_key: `alertform-${alertId}` });
    expect(events[0]!.links).toEqual([{ href: bodies()[0]!.ack_url, text: 'Acknowledge in alertform' }]);
  });

  it('acknowledges from the link without a key on POST only, and refuses a link of the earlier episode', async () => {
    const first = bodies()[0]!.ack_url as string;
    const latest = bodies().filter((b) => b.ack_url).at(-1)!.ack_url as string;
    const stale = await fetch(`${server.url}${linkPath(first)}`);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain('this link is from an earlier alerting episode of &quot;disk full&quot;');

    // A GET (what a mail scanner does) shows the form and acknowledges nothing.
    const shown = await fetch(`${server.url}${linkPath(latest)}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/);
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await shown.text();
    expect(html).toContain('<form method="post" action="">');
    expect(html).not.toContain('<script');
    expect((await server.request('GET', `/v2/alerts/${alertId}/`)).body.acknowledgement).toBeNull();

    const posted = await fetch(`${server.url}${linkPath(latest)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'by=Bob+Night&note=on+it',
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain('“disk full” is acknowledged by Bob Night.');
    const read = await server.request('GET', `/v2/alerts/${alertId}/`);
    expect(read.body.acknowledgement).toMatchObject({ by: 'Bob Night', note: 'on it' });
    await until(async () => statuses(), (s) => s.filter((x) => x === 'acknowledged').length === 2);

    const oldPost = await fetch(`${server.url}${linkPath(first)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"by":"Eve"}' });
    expect(oldPost.status).toBe(409);
    expect(((await oldPost.json()) as any).error.code).toBe('conflict');
  });

  it('refuses forged, foreign and expired links with a 4xx, never a 500', async () => {
    const page = bodies().filter((b) => b.ack_url).at(-1)!;
    const latest = linkPath(page.ack_url as string);
    const [body, mac] = latest.slice('/v2/ack-links/'.length).split('.');
    const forgedBody = Buffer.from(JSON.stringify({ k: 'ack', a: calmId, s: null, e: 9_999_999_999 })).toString('base64url');
    for (const token of [`${forgedBody}.${mac}`, `${body}.${'A'.repeat(mac!.length)}`, 'garbage', `${body}`, `${body}.${mac}.x`]) {
      const get = await fetch(`${server.url}/v2/ack-links/${token}`);
      expect(get.status, token).toBe(404);
      const post = await fetch(`${server.url}/v2/ack-links/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"by":"Eve"}' });
      expect(post.status, token).toBe(404);
      expect(((await post.json()) as any).error.code).toBe('not_found');
    }
    // A graph link's token (same key, another kind) is not an acknowledgement link.
    const graph = (page.graph as string).slice(`${PUBLIC_URL}/v2/graphs/`.length, -'.png'.length);
    expect((await fetch(`${server.url}/v2/ack-links/${graph}`)).status).toBe(404);

    clock += 25 * 60 * MINUTE;
    const expired = await fetch(`${server.url}${latest}`);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('this acknowledgement link has expired');

    // The request log names the route, never a token (each one acknowledges a page).
    const log = logLines.join('');
    expect(log).toContain('"path":"/v2/ack-links/(token)"');
    for (const url of bodies().flatMap((b) => (b.ack_url ? [b.ack_url as string] : []))) expect(log).not.toContain(url.split('.').at(-1)!);
    expect(log).not.toContain(mac!);
  });

  it('withdraws an acknowledgement with DELETE, and says 409 when there is none', async () => {
    const withdrawn = await server.request('DELETE', `/v2/alerts/${alertId}/ack/?by=Bob`);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.acknowledgement).toBeNull();
    const again = await server.request('DELETE', `/v2/alerts/${alertId}/ack/`);
    expect(again.status).toBe(409);
    const timeline = await server.request('GET', `/v2/alerts/${alertId}/timeline`);
    expect(timeline.body.entries.find((e: any) => e.kind === 'unacknowledged')).toMatchObject({ reason: 'withdrawn by Bob' });
  });
});
