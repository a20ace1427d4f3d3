import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite } from '../helpers/graphite.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { until } from '../helpers/until.js';
import { carbonTee, feedSlots, type CarbonTee, type SlotFeed } from '../helpers/carbon-tee.js';
import { freePort } from '../helpers/free-port.js';
import { storeBackends } from '../helpers/store-backends.js';
import { missingNote } from '../helpers/system.js';

/**
 * An account's metric prefixes change while its alert is judged on the stream (the operator runs `alertform keys
 * create --metric-prefix` again, in a process of its own): the alert's subscription follows them. Narrowed, the
 * alert no longer sees a path it matched before (its glob reaches outside the new prefixes); widened again, it
 * sees that path again. Real carbon-cache and graphite-web are fed the same points as the receiver, so the
 * re-subscription's warm-up from render is real too (render answers the whole glob: what is outside is dropped).
 * On SQLite (a file the CLI writes too) and on PostgreSQL (the accounts' change reaches the listing by NOTIFY).
 */
const availability = graphiteAvailability();
const backends = storeBackends();

const EMAIL = 'team1@example.com';
const A = 'team1.a.errors';
const B = 'team1.b.errors';

describe.each(backends)('on $name', (backend) => {
  describe.skipIf(availability.skip || backend.skip)(`a stream-judged alert when its account's metric prefixes change${missingNote(availability, backend)}`, () => {
    let dir: string;
    let db: string;
    let graphite: Graphite;
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
    let server: TestServer;
    let tee: CarbonTee;
    let feeder: SlotFeed | undefined;
    const values = new Map<string, number>([[A, 1], [B, 1]]);

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'alertform-stream-prefixes-'));
      db = backend.name === 'sqlite' ? join(dir, 'alertform.db') : await backend.createDb();
      const made = await runCli(['keys', 'create', '--db', db, '--email', EMAIL, '--metric-prefix', 'team1.']);
      expect(made.code, made.stderr).toBe(0);
      const carbonPort = await freePort();
      [graphite, receiver] = await Promise.all([startGraphite({ retentions: '10s:6h' }), startWebhookReceiver()]);
      server = await startTestServer({
        db,
        keys: [made.stdout.trim()],
        graphiteUrl: graphite.url,
        evalIntervalSeconds: 2,
        allowPrivateDestinations: true,
        carbon: { plaintext: `127.0.0.1:${carbonPort}` },
      });
      tee = carbonTee(graphite, carbonPort);
      // Ten minutes of history, then a point of each series per 10 s slot as it begins, with the values of the moment.
      feeder = await feedSlots(tee, values);
      const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${receiver.url}/pager` });
      expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    }, 120_000);

    afterAll(async () => {
      feeder?.stop();
      await tee?.close();
      await server?.close();
      await Promise.all([graphite?.stop(), receiver?.close()]);
      if (dir) await rm(dir, { recursive: true, force: true });
      await backend.dispose();
    });

    const read = async (id: string) =>
      (await server.request('GET', `/v2/alerts/${id}/`)).body as { status: string; evaluated_by: string; currently_triggered_metrics: string[] };
    const cycles = async () => Number(/^alertform_evaluation_cycle_duration_seconds_count (\d+)/m.exec((await server.request('GET', '/metrics')).text)?.[1] ?? 0);
    /** Sets the account's prefixes as an operator does (another process), then waits for two cycles begun after it. */
    const setPrefixes = async (...prefixes: string[]) => {
      const made = await runCli(['keys', 'create', '--db', db, '--email', EMAIL, ...prefixes.flatMap((prefix) => ['--metric-prefix', prefix])]);
      expect(made.code, made.stderr).toBe(0);
      const after = await cycles();
      await until(cycles, (count) => count >= after + 2, 20_000, 100);
      return made;
    };

    it('re-subscribes the alert: narrowed, a path outside is not seen; widened, the path newly allowed is', async () => {
      const created = await server.request('POST', '/v2/alerts/', {
        name: 'team1 errors', metric: 'team1.*.errors', alert_criteria: { type: 'above', above_value: 50 }, notification_channels: ['pager'], notification_type: 'state_change',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as string;
      await until(() => read(id), (alert) => alert.evaluated_by === 'stream' && alert.status === 'healthy', 30_000, 200);

      // Narrowed to team1.a.: the alert's glob still names team1.b.errors, which is outside now.
      const narrowed = await setPrefixes('team1.a.');
      expect(narrowed.stderr).toContain(`existing alert ${id} reads "team1.*.errors"`);
      values.set(B, 100);
      values.set(A, 100);
      const alerting = await until(() => read(id), (alert) => alert.status === 'alerting', 60_000, 200);
      expect(alerting.currently_triggered_metrics).toEqual([A]);
      const pages = receiver.received.filter((r) => r.path === '/pager').map((r) => r.body as { metric: string; status: string });
      expect(pages.map((page) => page.metric)).not.toContain(B);

      // Widened back to team1.: team1.b.errors is the alert's again, warmed from render and then on the stream.
      await setPrefixes('team1.');
      const both = await until(() => read(id), (alert) => alert.currently_triggered_metrics.length === 2, 60_000, 200);
      expect([...both.currently_triggered_metrics].sort()).toEqual([A, B]);
      expect(both.evaluated_by).toBe('stream');
    }, 240_000);
  });
});
