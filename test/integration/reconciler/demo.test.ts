import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDemoGraphite } from '../../../src/cli/actions/demo-graphite.js';
import { startDemoMailSink } from '../../../src/cli/actions/demo-mail.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { copyExamples } from './helpers.js';

describe('the demo (npm run demo)', { timeout: 180_000 }, () => {
  it('starts the bundled server, applies examples/, shows an empty second plan, and reuses its database', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'af-demo-')), 'state');
    const first = await runCli(['demo', '--port', '0', '--exit', '--dir', dir], { timeoutMs: 150_000 });
    expect(first.stdout).toMatch(/demo API key: demo-[0-9a-f]{24}/);
    expect(first.stdout).toContain('Plan: 20 to create, 0 to update, 0 to mute, 0 to delete.');
    expect(first.stdout).toContain('Apply: 20 done, 0 failed, 0 skipped.');
    expect(first.stdout.split('== 3.')[1]).toContain('No changes. The server matches the definitions.');
    expect(first.code).toBe(0);
    // From the clone's root, the hints use the clone's own paths.
    expect(first.stdout).toMatch(/^  \.\/bin\/alertform plan examples --server http:\/\/demo-\w+@127\.0\.0\.1:\d+$/m);
    // --exit stops the server: it advertises no console it has just stopped.
    expect(first.stdout).not.toContain('Open the web console');
    expect(first.stdout).toContain('The demo server stops now (--exit); without --exit it keeps running, with its web console.');

    const again = await runCli(['demo', '--port', '0', '--exit', '--dir', dir], { timeoutMs: 150_000 });
    expect(again.stdout.split('== 2.')[0]).toContain('No changes.');
    expect(again.stdout.match(/demo API key: (\S+)/)![1]).toBe(first.stdout.match(/demo API key: (\S+)/)![1]);
    expect(again.code).toBe(0);
  });
});

describe('the demo mail sink (built into npm run demo)', () => {
  it("takes the demo's email notifications: the email channel delivers instead of dead-lettering", async () => {
    const mail = await startDemoMailSink();
    const graphite = await startDemoGraphite();
    const server = await startTestServer({ graphiteUrl: graphite.url, evalIntervalSeconds: 0.3, smtpUrl: mail.url, smtpFrom: 'alertform-demo@localhost' });
    try {
      const email = await server.request('POST', '/v2/notifications/', { type: 'email', description: 'shop-ops-email', destination: 'shop-ops@example.com' });
      const alert = { name: 'disk', metric: 'shop.hosts.*.disk.root.percent_used', alert_criteria: { type: 'above', above_value: 90, time_period: 15 }, notification_channels: [email.body.id] };
      expect((await server.request('POST', '/v2/alerts/', alert)).status).toBe(201);
      const delivered = await until(() => server.request('GET', '/v2/deliveries/?state=delivered&state=dead'), (response) => response.body.deliveries.length === 1);
      expect(delivered.body.deliveries[0]).toMatchObject({ state: 'delivered', channel: { type: 'email' }, event: 'alerting' });
      expect(mail.received()).toBe(1);
    } finally {
      await server.close();
      await graphite.close();
      await mail.close();
    }
  });
});

describe('the demo Graphite (built into npm run demo)', () => {
  it('makes exactly one example alert alert (shop-host-disk-full on web-2) and reads every other one healthy', async () => {
    const graphite = await startDemoGraphite();
    const server = await startTestServer({ graphiteUrl: graphite.url, evalIntervalSeconds: 0.3, notifierUrls: { victorops: graphite.url } });
    try {
      // The examples without their weekly maintenance window: on Sunday nights it mutes the hosts' alerts, and with
      // them the disk alert's page that this test waits for (the demo does mute it then, as it should).
      const examples = copyExamples(['maintenance-windows.yaml']);
      const applied = await runCli(['apply', examples, '--auto-approve'], { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key, ALERTFORM_GRAPHITE_URL: undefined }, timeoutMs: 120_000 });
      expect(applied.code, applied.stderr).toBe(0);
      const unknown = await server.request('POST', '/v2/alerts/', { name: 'other', metric: 'not.a.demo.metric', alert_criteria: { type: 'above', above_value: 10 } });
      expect(unknown.status).toBe(201);
      const overview = await until(
        () => server.request('GET', '/v2/alerts/overview/'),
        (response) => response.body.counts.alerting > 0 && response.body.counts.not_evaluated === 0,
      );
      // Every example alert is judged on data: one alerting, the rest healthy; only the metric the demo Graphite does
      // not have reads no data (never healthy).
      const states = Object.fromEntries(overview.body.alerts.map((alert: { name: string; state: string }) => [alert.name, alert.state]));
      const notHealthy = Object.entries(states).filter(([, state]) => state !== 'healthy').sort();
      expect(notHealthy).toEqual([['other', 'no_data'], ['shop-host-disk-full', 'alerting']]);
      expect(Object.keys(states)).toHaveLength(13);
      expect(overview.body.alerts.find((alert: { name: string }) => alert.name === 'shop-host-disk-full')).toMatchObject({ currently_triggered_metrics: ['shop.hosts.web-2.disk.root.percent_used'] });
      // Its VictorOps notification was answered by the demo Graphite itself.
      await until(() => server.request('GET', '/v2/deliveries/?state=delivered'), (response) => response.body.deliveries.some((d: { channel: { type: string } }) => d.channel.type === 'victorops'));
    } finally {
      await server.close();
      await graphite.close();
    }
  });
});

describe('the demo relay and the demo Graphite (npm run demo)', () => {
  it("answer the same points: render reads the payment gateway's breach the relay streams", async () => {
    const graphite = await startDemoGraphite();
    try {
      const now = Math.floor(Date.now() / 1000);
      const from = Math.floor((now - 180) / 60) * 60;
      graphite.setBreach(from, from + 120);
      const response = await fetch(`${graphite.url}/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ target: 'shop.payments.gateway.timeouts', from: '-10min', format: 'json' }),
      });
      const [series] = (await response.json()) as { datapoints: [number, number][] }[];
      const breaching = series!.datapoints.filter(([value]) => value === 12).map(([, time]) => time);
      expect(breaching).toEqual([from, from + 60]);
      expect(series!.datapoints.filter(([value]) => value !== 12).every(([value]) => value === 0)).toBe(true);
    } finally {
      await graphite.close();
    }
  });
});
