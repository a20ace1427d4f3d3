import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { applyPlan } from '../../../src/apply/run.js';
import type { AlertformClient } from '../../../src/client/api.js';
import { copyExamples, fastClient, planDir } from './helpers.js';

let server: TestServer;
let client: AlertformClient;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  client = fastClient(server.authUrl);
  dir = copyExamples();
});
afterAll(() => server.close());

function edit(file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no "${from}"`);
  writeFileSync(path, text.replace(from, to));
}

describe('the reconciler against the real server', { timeout: 120_000 }, () => {
  it('applies the examples, then plans clean, then applies a change, then prunes', async () => {
    // validate + plan: everything is new.
    const first = await planDir(dir, client);
    expect(first.plan.problems).toEqual([]);
    expect(first.plan.summary).toMatchObject({ create: 20, update: 0, delete: 0, unmanaged: 0 });

    // apply: every step done.
    const applied = await applyPlan(first.plan, first.actual, client);
    expect(applied.failed).toEqual([]);
    expect(applied.done).toHaveLength(20);

    // a clean re-plan: the canonical forms of both sides agree.
    const second = await planDir(dir, client);
    expect(second.plan.changes).toEqual([]);
    expect(second.plan.summary.noOp).toBe(20);

    // a change: a threshold, a channel's routing, a mute until later, and an alert removed from the files.
    edit('alerts-api.yaml', 'above_value: 800', 'above_value: 900');
    edit('channels.yaml', "    destination: ${SHOP_OPS_EMAIL:-shop-ops@example.com}", "    destination: ${SHOP_OPS_EMAIL:-oncall@example.com}");
    edit('alerts-platform.yaml', '    notification_channels: [shop-search-opsgenie]\n', `    notification_channels: [shop-search-opsgenie]\n    muted: {until: "${new Date(Date.now() + 3 * 3600_000).toISOString()}"}\n`);
    edit('alerts-platform.yaml', '  - name: shop-queue-orders-backlog\n    metric: shop.queue.orders.depth\n    alert_criteria:\n      type: above\n      above_value: 10000\n      time_period: 10\n    notification_channels: [shop-team-slack]\n', '');
    const third = await planDir(dir, client);
    expect(third.plan.problems).toEqual([]);
    expect(third.plan.changes.map((c) => c.id)).toEqual([
      'channel:shop-ops-email:update',
      'alert:shop-api-latency-p99:update',
      'alert:shop-search-index-stale:mute',
      'alert:shop-queue-orders-backlog:delete',
    ]);
    const latency = third.plan.changes[1]!;
    expect(latency.action === 'update' && latency.diffs).toEqual([{ path: 'alert_criteria.above_value', before: 800, after: 900 }]);
    const thirdApplied = await applyPlan(third.plan, third.actual, client);
    expect(thirdApplied.failed).toEqual([]);
    expect((await planDir(dir, client)).plan.changes).toEqual([]);
    const muted = await server.request('GET', `/v2/alerts/${third.plan.changes[2]!.action === 'mute' ? third.plan.changes[2]!.remoteId : ''}/muted/`);
    expect(muted.body).toMatchObject({ muted: true });
    expect(muted.body.duration).toBeGreaterThanOrEqual(179);

    // prune: a channel no alert uses goes; one still in use is refused with the alert's name.
    edit('channels.yaml', '  - description: shop-search-opsgenie\n    type: opsgenie\n    destination: ${SHOP_OPSGENIE_KEY:-og-placeholder-api-key}\n', '');
    const refused = await planDir(dir, client);
    expect(refused.plan.problems.map((p) => p.message)).toEqual(['refusing to delete channel "shop-search-opsgenie": still used by alert "shop-search-index-stale"']);
    edit('alerts-platform.yaml', '    notification_channels: [shop-search-opsgenie]\n', '    notification_channels: [shop-ops-email]\n');
    const pruned = await planDir(dir, client);
    expect(pruned.plan.changes.map((c) => c.id)).toEqual(['alert:shop-search-index-stale:update', 'channel:shop-search-opsgenie:delete']);
    expect(pruned.plan.changes[1]!.dependsOn).toEqual(['alert:shop-search-index-stale:update']);
    expect((await applyPlan(pruned.plan, pruned.actual, client)).failed).toEqual([]);
    const final = await planDir(dir, client);
    expect(final.plan.changes).toEqual([]);
    expect(final.plan.unmanaged).toEqual([]);
  });
});
