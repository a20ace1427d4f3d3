import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer } from '../../helpers/server.js';
import { hasCommand, systemPart } from '../../helpers/system.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

// Debian's `prometheus` package ships promtool; .ci/run installs it.
const promtool = systemPart('promtool', hasCommand('promtool'));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** promtool's lint of a Prometheus text exposition: its exit code and what it said. */
function checkMetrics(text: string): { code: number | null; said: string } {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { code: result.status, said: `${result.stdout}${result.stderr}`.trim() };
}

describe.skipIf(promtool.skip)(`/metrics under promtool${promtool.skip ? ` (skipped: ${promtool.reason})` : ''}`, () => {
  it('refuses what prom-client exposes by default (a gauge named *_total): the check can fail', () => {
    const bad = '# HELP nodejs_active_handles_total Total number of active handles.\n# TYPE nodejs_active_handles_total gauge\nnodejs_active_handles_total 4\n';
    const result = checkMetrics(bad);
    expect(result.code).not.toBe(0);
    expect(result.said).toContain('non-counter metrics should not have "_total" suffix');
  });

  it('passes `promtool check metrics` on the whole page of an evaluating, delivering server', { timeout: 60_000 }, async () => {
    const render = await startFakeRender((request) => ({ series: request.targets.map((target) => makeSeries(target, [95, 95], Math.floor(Date.now() / 1000) - 60, 30)) }));
    closers.push(render.close);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const server = await startTestServer({
      graphiteUrl: render.url, evalIntervalSeconds: 0.2, allowPrivateDestinations: true, delivery: { pollMs: 50 },
    });
    closers.push(() => server.close());
    expect((await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` })).status).toBe(201);
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'hot', metric: 'web.cpu', alert_criteria: { type: 'above', above_value: 90 }, notification_channels: ['hook'], notification_type: ['state_change'],
    });
    expect(created.status, created.text).toBe(201);
    // A transition, a delivery and the requests' histogram: every family of ours has series to lint.
    await until(async () => receiver.received.length, (count) => count >= 1);
    const text = await until(
      async () => (await server.request('GET', '/metrics', undefined, { key: null })).text,
      (page) => /^alertform_notifications_sent_total\{[^}]*\} [1-9]/m.test(page),
    );
    expect(text).toMatch(/^alertform_transitions_total\{/m);
    expect(text).toMatch(/^nodejs_active_handles\{/m);
    const result = checkMetrics(text);
    expect(result.said).toBe('');
    expect(result.code).toBe(0);
  });
});
