import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeEmailTransports } from '../../../src/server/notifiers/email.js';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver, type ReceivedRequest } from '../../helpers/webhook-receiver.js';

const availability = graphiteAvailability();

/** Polls `read` until `done` accepts its value, at most `timeoutMs`; returns the last value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

describe.skipIf(availability.skip)('evaluation against a real Graphite', () => {
  let graphite: Graphite;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let smtp: SMTPServer;
  const mails: string[] = [];
  let mailWaiters: (() => void)[] = [];
  let server: TestServer;

  beforeAll(async () => {
    [graphite, receiver] = await Promise.all([startGraphite({ retentions: '10s:6h' }), startWebhookReceiver()]);
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push(raw);
          mailWaiters.forEach((wake) => wake());
          mailWaiters = [];
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    server = await startTestServer({
      graphiteUrl: graphite.url,
      evalIntervalSeconds: 1,
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      smtpFrom: 'alertform@example.com',
      // Third-party APIs pointed at the local receiver: the requests are the real ones, only the host differs.
      notifierUrls: { pagerduty: `${receiver.url}/pagerduty`, opsgenie: `${receiver.url}/opsgenie` },
      // The receivers listen on 127.0.0.1: a single-tenant install's opt-in.
      allowPrivateDestinations: true,
    });
  });

  afterAll(async () => {
    await server?.close();
    closeEmailTransports();
    await Promise.all([graphite?.stop(), receiver?.close(), new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()))]);
  });

  it('fires an alert defined through the API from points written to carbon, notifies every channel type, records history and recovers', async () => {
    const channels = [
      { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` },
      { type: 'slack', description: 'slack', destination: `${receiver.url}/slack/T0/B0/X` },
      { type: 'pagerduty', description: 'pd', destination: 'pd-routing-key', auto_resolve: true },
      { type: 'victorops', description: 'vo', destination: `${receiver.url}/victorops/api-key/routing`, auto_resolve: true },
      { type: 'opsgenie', description: 'og', destination: 'og-key' },
      { type: 'email', description: 'mail', destination: 'ops@example.com' },
    ];
    for (const channel of channels) {
      const created = await server.request('POST', '/v2/notifications/', channel);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'Web CPU',
      metric: 'it.web.*.cpu',
      alert_criteria: { type: 'above', above_value: 90 },
      notification_channels: channels.map((c) => c.description),
      notification_type: 'state_change',
      info: 'Runbook: restart the <web> tier',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const alertId: string = created.body.id;

    // Breaching data for web1 only, in the previous 30 s bucket; web2 stays low.
    const now = Math.floor(Date.now() / 1000);
    const bucket = Math.floor(now / 30) * 30 - 30;
    await graphite.writePoints([
      { path: 'it.web.1.cpu', value: 95, time: bucket },
      { path: 'it.web.1.cpu', value: 97, time: bucket + 10 },
      { path: 'it.web.2.cpu', value: 10, time: bucket },
    ]);

    const byPath = (prefix: string, status?: string) => (request: ReceivedRequest) =>
      request.path.startsWith(prefix) && (status === undefined || JSON.stringify(request.body).includes(status));

    const hook = await receiver.waitFor(byPath('/hook'), 30_000);
    expect(hook.body).toEqual({
      id: hook.headers['idempotency-key'],
      name: 'Web CPU',
      criteria: 'above 90',
      // Without --public-url there is no graph link, and Graphite's own URL never reaches a receiver.
      graph: null,
      // The worst point Graphite returned (95 and 97 in the bucket), never their mean.
      value: 97,
      metric: 'it.web.1.cpu',
      status: 'alerting',
      backoff_minutes: null,
      info: 'Runbook: restart the <web> tier',
      // For machines: the alert's own id, the kind of event, the episode's times, thresholds, every series.
      alert_id: alertId,
      event: 'alerting',
      started_at: expect.any(Number),
      ended_at: null,
      thresholds: { above: 90, below: null },
      triggered_metrics: [{ metric: 'it.web.1.cpu', value: 97 }],
    });
    expect(hook.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);

    const alert = await until(() => server.request('GET', `/v2/alerts/${alertId}/`), (r) => r.body.status === 'alerting');
    expect(alert.body.currently_triggered_metrics).toEqual(['it.web.1.cpu']);
    const history = await server.request('GET', `/v2/alerts/history/?id=${alertId}`);
    expect(history.status).toBe(200);
    // A cycle that ran before the points landed may have judged the alert without data: a `no_data` entry, true,
    // and paging nobody (on_no_data: ignore). The transitions are what this test is about.
    const transitions = (entries: { status: string; value: number | null }[]) => entries.filter((entry) => entry.status !== 'no_data');
    expect(transitions(history.body[alertId])).toEqual([{ status: 'alerting', value: 97, time: expect.stringMatching(/^\d+$/), metric: 'it.web.1.cpu' }]);

    const slack = await receiver.waitFor(byPath('/slack'));
    expect((slack.body as { text: string }).text).toBe('[ALERTING] Web CPU: it.web.1.cpu = 97 (above 90)');
    const pd = await receiver.waitFor(byPath('/pagerduty/v2/enqueue'));
    expect(pd.body).toMatchObject({ routing_key: 'pd-routing-key', event_action: 'trigger', dedup_key: `alertform-${alertId}` });
    const og = await receiver.waitFor(byPath('/opsgenie/v2/alerts'));
    expect(og.headers.authorization).toBe('GenieKey og-key');
    expect(og.body).toMatchObject({ alias: `alertform-${alertId}` });
    const vo = await receiver.waitFor(byPath('/victorops/api-key/routing'));
    expect(vo.body).toMatchObject({ message_type: 'CRITICAL', entity_id: `alertform-${alertId}` });
    const mail = await waitForMail((raw) => raw.includes('ops@example.com'));
    expect(mail).toMatch(/Content-Type: text\/html/);
    expect(mail.replace(/=\r\n/g, '').replace(/=3D/g, '=')).toContain('restart the &lt;web&gt; tier');

    // Recovery: a later point below the threshold.
    await graphite.writePoints([{ path: 'it.web.1.cpu', value: 20, time: Math.max(Math.floor(Date.now() / 1000), bucket + 30) }]);
    const recovered = await receiver.waitFor(byPath('/hook', '"recovered"'), 30_000);
    expect(recovered.body).toMatchObject({ status: 'recovered', metric: 'it.web.1.cpu', value: 20 });
    const healthy = await until(() => server.request('GET', `/v2/alerts/${alertId}/`), (r) => r.body.status === 'healthy');
    expect(healthy.body.currently_triggered_metrics).toEqual([]);
    const after = await server.request('GET', `/v2/alerts/history/?id=${alertId}`);
    expect(transitions(after.body[alertId]).map((e) => [e.status, e.value])).toEqual([
      ['recovered', 20],
      ['alerting', 97],
    ]);
    expect(await receiver.waitFor(byPath('/pagerduty/v2/enqueue', '"resolve"'))).toBeTruthy();
    expect(await receiver.waitFor(byPath(`/opsgenie/v2/alerts/alertform-${alertId}/close`))).toBeTruthy();
    expect(await receiver.waitFor(byPath('/victorops', 'RECOVERY'))).toBeTruthy();
    await waitForMail((raw) => raw.includes('RECOVERED'));
  });

  it('shows the last delivery error on the channel read', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const channel = await server.request('POST', '/v2/notifications/', {
      type: 'webhook',
      description: 'broken hook',
      destination: `http://127.0.0.1:${closedPort}/nowhere`,
    });
    expect(channel.status).toBe(201);
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'Disk',
      metric: 'it.disk.used',
      alert_criteria: { type: 'above', above_value: 1 },
      notification_channels: ['broken hook'],
    });
    expect(created.status).toBe(201);
    await graphite.writePoints([{ path: 'it.disk.used', value: 5, time: Math.floor(Date.now() / 1000) - 30 }]);
    // The error is stored from the first failed attempt on, while the retries go on.
    const read = await until(() => server.request('GET', `/v2/notifications/${channel.body.id}/`), (r) => Boolean(r.body.last_error));
    expect(read.body.last_error).toEqual({ time: expect.stringMatching(/^\d+$/), message: 'webhook could not be reached' });
    expect(JSON.stringify(read.body.last_error)).not.toContain('127.0.0.1');
  });

  it('records a query that Graphite rejects as query_failed and notifies when on_query_failure is notify', async () => {
    await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'failures', destination: `${receiver.url}/failures` });
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'Broken query',
      metric: 'noSuchFunction(it.web.*.cpu)',
      alert_criteria: { type: 'above', above_value: 1 },
      notification_channels: ['failures'],
      on_query_failure: 'notify',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.id;
    const hook = await receiver.waitFor((r) => r.path === '/failures', 30_000);
    expect(hook.body).toMatchObject({ name: 'Broken query', status: 'query_failed', metric: 'noSuchFunction(it.web.*.cpu)', value: null });
    const history = await until(() => server.request('GET', `/v2/alerts/history/?id=${id}`), (r) => Boolean(r.body[id]));
    expect(history.body[id]).toEqual([{ status: 'query_failed', value: null, time: expect.stringMatching(/^\d+$/), metric: 'noSuchFunction(it.web.*.cpu)' }]);
    const alert = await server.request('GET', `/v2/alerts/${id}/`);
    expect(alert.body.status).toBe('healthy');
  });

  it('fires a missing-data alert for the one series that stopped reporting', async () => {
    const now = Math.floor(Date.now() / 1000);
    await graphite.writePoints([
      { path: 'it.beat.a', value: 1, time: now - 180 },
      { path: 'it.beat.b', value: 1, time: now - 180 },
      { path: 'it.beat.a', value: 1, time: now - 5 },
    ]);
    // Until carbon has created their files, Graphite shows no series at all (a missing query would then name
    // itself): wait until it shows both.
    await graphite.waitForSeries('it.beat.*', (series) => series.filter((one) => one.datapoints.some(([value]) => value !== null)).length === 2, { minutes: 10 });
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'Heartbeats',
      metric: 'it.beat.*',
      alert_criteria: { type: 'missing', time_period: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.id;
    const alert = await until(
      () => server.request('GET', `/v2/alerts/${id}/`),
      (r) => r.body.status === 'alerting' && JSON.stringify(r.body.currently_triggered_metrics) === '["it.beat.b"]',
    );
    expect(alert.body.currently_triggered_metrics).toEqual(['it.beat.b']);
    const history = await server.request('GET', `/v2/alerts/history/?id=${id}&status=alerting`);
    expect(history.body[id].every((entry: { value: unknown }) => entry.value === null)).toBe(true);
    expect(history.body[id].map((entry: { metric: string }) => entry.metric)).toContain('it.beat.b');
  });

  async function waitForMail(match: (raw: string) => boolean, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching mail within ${timeoutMs} ms (${mails.length} received)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        mailWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
});
