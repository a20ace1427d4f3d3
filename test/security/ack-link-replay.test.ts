import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { describeEachStore } from '../helpers/store-backends.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// Before: the ack link of a page could be POSTed again and again with other names: the last one won, silently (the
// channels were told once, of the first). After: the first acknowledgement through a link stands; later ones are
// answered 409 with who has it and since when (JSON for a JSON client, a page for a browser), and the confirmation
// page shows it instead of a form.

const PUBLIC_URL = 'https://alertform.example';
const dir = mkdtempSync(join(tmpdir(), 'af-ack-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeEachStore('an acknowledgement link replayed on $name', (backend) => {
  let server: ServeProcess;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let render: Awaited<ReturnType<typeof startFakeRender>>;
  const pages = () => receiver.received.map((r) => r.body as Record<string, any>);

  beforeAll(async () => {
    receiver = await startWebhookReceiver(() => 200);
    render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [5, 5], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    const db = backend.name === 'sqlite' ? join(dir, 'replay.db') : await backend.createDb();
    server = await spawnServe({
      db,
      extraArgs: ['--graphite-url', render.url, '--public-url', PUBLIC_URL, '--eval-interval', '1', '--allow-private-destinations'],
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await render?.close();
  });

  it('keeps the first acknowledgement, and tells the later ones who has it', async () => {
    const channel = await callServe(server, 'POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    expect(channel.status).toBe(201);
    const alert = await callServe(server, 'POST', '/v2/alerts/', {
      name: 'disk full',
      metric: 'web.disk',
      alert_criteria: { type: 'above', above_value: 1 },
      notification_channels: ['hook'],
    });
    expect(alert.status).toBe(201);
    const page = (await until(async () => pages(), (list) => list.some((p) => p.ack_url))).find((p) => p.ack_url)!;
    const link = `${server.url}${(page.ack_url as string).slice(PUBLIC_URL.length)}`;
    const post = (body: string, type = 'application/json') => fetch(link, { method: 'POST', headers: { 'content-type': type }, body });

    // Two people answer the page at once: one acknowledgement is written, the other is told.
    const [a, b] = await Promise.all([post('{"by":"Ann"}'), post('{"by":"Bob"}')]);
    const answers = [{ status: a.status, body: (await a.json()) as any }, { status: b.status, body: (await b.json()) as any }];
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const first = answers.find((x) => x.status === 200)!.body.acknowledgement.by as string;
    const refused = answers.find((x) => x.status === 409)!.body.error;
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain(`"disk full" is already acknowledged by ${first} (since `);
    expect(refused.details.map((d: { path: string }) => d.path)).toEqual(['acknowledgement.by', 'acknowledgement.at']);
    expect(refused.details[0].message).toBe(first);

    // Replays with other names, as JSON and as the page's form: refused, the first one stands.
    const replay = await post('{"by":"Eve","note":"mine now"}');
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as any).error.details[0].message).toBe(first);
    const form = await post('by=Mallory', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(409);
    expect(await form.text()).toContain(`is already acknowledged by ${first} (since `);
    const read = await callServe(server, 'GET', `/v2/alerts/${alert.body.id}/`);
    expect(read.body.acknowledgement).toMatchObject({ by: first, note: null });

    // The link's page says who has it, with no form to fill in vain.
    const shown = await (await fetch(link)).text();
    expect(shown).toContain(`is acknowledged by ${first} since `);
    expect(shown).not.toContain('<form');

    // The channel was told once, of the acknowledgement that stands.
    const told = await until(async () => pages().filter((p) => p.status === 'acknowledged'), (list) => list.length >= 1);
    expect(told.map((p) => p.acknowledgement.by)).toEqual([first]);
  }, 60_000);
});
