import Database from 'better-sqlite3';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RENDERED_CHARS } from '../../src/notifications/templates/bounds.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { servedHealthWhile } from '../helpers/event-loop-lag.js';
import { spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// A message template is a tenant's text run on the server's event loop. Before: a webhook channel whose body
// nested {{#triggered}} inside itself 11 times (about 320 characters, accepted), on a wildcard of 5 series,
// rendered 5^11 lines in one synchronous step: other tenants' requests took 76 s, /healthz timed out, RSS 4 GB,
// and the delivery's retries brought the freeze back for a day. Here 9 levels (5^9 lines: seconds, not minutes).
// After: the API refuses such a template (400 at template.body); one stored before the rule is sent with the
// default wording; a long one is cut while rendering, with a marker; another tenant's page and /healthz stay on time.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const HOSTILE_KEY = 'hostile-tenant-key-0123456789';
const VICTIM_KEY = 'victim-tenant-key-0123456789';
const SERIES = 5;

/** The attack: a list's section nested inside itself `levels` times. */
function tower(levels: number): string {
  return `${'{{#triggered}}'.repeat(levels)}{{metric}} {{value}}\n${'{{/triggered}}'.repeat(levels)}`;
}

async function call(server: ServeProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Two tenants on one SQLite file; the hostile wildcard matches 5 series above the threshold from the start. */
async function startTenants() {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-template-work-'));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  const keys = join(dir, 'keys');
  await writeFile(keys, `${VICTIM_KEY}\n`, { mode: 0o600 });
  const values: Record<string, number> = {};
  const render = await startFakeRender((request) => {
    const end = Math.floor(Date.now() / 1000) - 30;
    return {
      series: request.targets.flatMap((target) =>
        target.includes('hostile')
          ? Array.from({ length: SERIES }, (_, i) => makeSeries(`hostile.${i}.cpu`, [50, 50], end, 30))
          : [makeSeries(target, [values[target] ?? 0, values[target] ?? 0], end, 30)],
      ),
    };
  });
  closers.push(render.close);
  const db = join(dir, 'alertform.db');
  const start = async () => {
    const server = await spawnServe({
      db,
      key: HOSTILE_KEY,
      extraArgs: [
        '--api-key-file', keys, '--graphite-url', render.url, '--eval-interval', '0.3', '--allow-private-destinations',
        '--delivery-first-retry', '100ms', '--delivery-max-retry-delay', '300ms',
      ],
    });
    closers.push(() => server.kill());
    return server;
  };
  return { db, values, start };
}

describe('a message template cannot freeze the server', () => {
  it('refuses a list section nested in itself, on create and on update, naming the part', async () => {
    const { start } = await startTenants();
    const server = await start();
    const hook = { type: 'webhook', description: 'tower', destination: 'https://hooks.example/a' };
    const created = await call(server, HOSTILE_KEY, 'POST', '/v2/notifications/', { ...hook, template: { body: tower(11) } });
    // 404 invalid_body: the seed's status for any invalid channel create (400 on PUT).
    expect(created.status).toBe(404);
    expect(created.body.error.code).toBe('invalid_body');
    expect(created.body.error.details).toEqual([
      { path: 'template.body', message: expect.stringContaining('a {{#triggered}} section inside another {{#triggered}}') },
    ]);
    const plain = await call(server, HOSTILE_KEY, 'POST', '/v2/notifications/', hook);
    expect(plain.status).toBe(201);
    const updated = await call(server, HOSTILE_KEY, 'PUT', `/v2/notifications/${plain.body.id}/`, { ...hook, template: { title: tower(2) } });
    expect(updated.status).toBe(400);
    expect(updated.body.error.details[0].path).toBe('template.title');
  }, 60_000);

  it("sends a stored tower with the default wording and a long message cut with a marker, once, while another tenant's page and /healthz stay on time", async () => {
    const { db, values, start } = await startTenants();
    const hostileHooks = await startWebhookReceiver();
    closers.push(hostileHooks.close);
    const victimHook = await startWebhookReceiver();
    closers.push(victimHook.close);

    // Written through the API with a harmless template, then changed in the database, as a template stored
    // before the rule would be. The server is stopped so that the file is not shared meanwhile.
    let server = await start();
    const channel = (description: string, template: unknown) =>
      call(server, HOSTILE_KEY, 'POST', '/v2/notifications/', { type: 'webhook', description, destination: `${hostileHooks.url}/${description}`, template });
    const stored = await channel('stored', { body: '{{summary}}' });
    expect(stored.status).toBe(201);
    // Accepted by the rules (one list section of 2,000 tags), but 5 series x 2,000 names of 255 characters is 2.5 MB.
    const long = await channel('long', { body: `{{#triggered}}${'{{name}}'.repeat(2_000)}{{/triggered}}` });
    expect(long.status).toBe(201);
    await server.stop();
    const sqlite = new Database(db);
    sqlite.prepare('UPDATE channels SET template = ? WHERE id = ?').run(JSON.stringify({ body: tower(9) }), stored.body.id);
    sqlite.close();
    server = await start();

    const victimChannel = await call(server, VICTIM_KEY, 'POST', '/v2/notifications/', { type: 'webhook', description: 'page', destination: `${victimHook.url}/page` });
    expect(victimChannel.status).toBe(201);
    const victimAlert = await call(server, VICTIM_KEY, 'POST', '/v2/alerts/', {
      name: 'victim', metric: 'victim.cpu', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['page'],
    });
    expect(victimAlert.status).toBe(201);

    const run = await servedHealthWhile(server, async () => {
      const hostile = await call(server, HOSTILE_KEY, 'POST', '/v2/alerts/', {
        name: 'x'.repeat(255), metric: 'hostile.*.cpu', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['stored', 'long'],
      });
      expect(hostile.status).toBe(201);
      await hostileHooks.waitFor((request) => request.path === '/stored', 30_000);
      // The victim's metric crosses while the hostile deliveries are made: paged within a few cycles.
      const crossedAt = Date.now();
      values['victim.cpu'] = 50;
      const paged = await victimHook.next(30_000);
      const waitedMs = Date.now() - crossedAt;
      await hostileHooks.waitFor((request) => request.path === '/long', 30_000);
      return { paged, waitedMs };
    }, 50);
    expect((run.result.paged.body as { name: string }).name).toBe('victim');
    expect(run.result.waitedMs).toBeLessThan(5_000);
    expect(run.failures).toBe(0);
    // In the server's CPU time; 5^9 lines took seconds before.
    expect(run.slowestCpuMs).toBeLessThan(1_000);

    const body = (path: string) => hostileHooks.received.find((request) => request.path === path)!.body as { body: string; triggered_metrics: unknown[] };
    // The stored tower breaks a rule: the default wording, one line per series, not 5^9.
    expect(body('/stored').body).toMatch(/^\[ALERTING\]/);
    expect(body('/stored').body.length).toBeLessThan(5_000);
    expect(body('/stored').triggered_metrics).toHaveLength(SERIES);
    // The long one stopped at the cap while rendering, and says so.
    expect(body('/long').body.length).toBeLessThan(MAX_RENDERED_CHARS + 200);
    expect(body('/long').body).toMatch(/… \[message cut at \d+ characters by alertform: longer than 65536 characters\]$/);
    // Each delivered once: nothing failed, so nothing is retried into the same render.
    const delivered = await until(
      () => call(server, HOSTILE_KEY, 'GET', '/v2/deliveries/?state=delivered'),
      (answer) => answer.body.deliveries.length === 2,
    );
    expect(delivered.body.deliveries.map((d: { attempts: number }) => d.attempts)).toEqual([1, 1]);
    expect((await call(server, HOSTILE_KEY, 'GET', '/v2/deliveries/')).body.deliveries).toEqual([]);
    expect(hostileHooks.received).toHaveLength(2);
  }, 120_000);
});
