import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphiteClient } from '../../../src/graphite/render-client.js';
import { runEvaluationCycle } from '../../../src/server/evaluator/run-cycle.js';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const WINDOWS = '/v2/maintenance_windows/';

// Maintenance windows (an API extension) on both stores: the endpoints, their validation, the preview, and the
// evaluator muting what an active window matches, with the history it leaves.
describeEachStore('maintenance windows on $name', (backend) => {
  let server: TestServer;
  let pager: string;
  const keys = ['windows-key-0123456789abcd', 'windows-other-0123456789ab', 'windows-quota-0123456789ab'];
  const alertIds: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb(), keys });
    // A destination nobody answers: deliveries stay in the outbox, where the tests count them.
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: 'https://pager.example.invalid/hook' });
    pager = channel.body.id;
    const alerts: [string, string, string[]][] = [
      ['web-1 cpu', 'servers.dc1.web1.cpu', ['pager']],
      ['web-2 cpu', 'servers.dc1.web2.cpu', []],
      ['web-3 cpu', 'servers.dc2.web3.cpu', []],
      ['db primary load', 'sumSeries(servers.dc1.db1.load)', ['pager']],
    ];
    for (const [name, metric, channels] of alerts) {
      const made = await server.request('POST', '/v2/alerts/', {
        name,
        metric,
        alert_criteria: { type: 'above', above_value: 90 },
        notification_type: ['state_change'],
        ...(channels.length ? { notification_channels: channels } : {}),
      });
      expect(made.status).toBe(201);
      alertIds[name] = made.body.id;
    }
  });
  afterAll(() => server.close());

  const oneOff = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    match: { alert_names: ['web-*'] },
    starts_at: '2030-01-01T00:00:00Z',
    duration: 60,
    ...extra,
  });
  const problems = async (body: unknown, method = 'POST', path = WINDOWS) => {
    const answer = await server.request(method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_body');
    return (answer.body.error.details as { path: string; message: string }[]).map((d) => d.path);
  };

  it('creates, reads, lists with search and pages, updates in part and deletes a window; channel names read back as ids', async () => {
    const made = await server.request('POST', WINDOWS, {
      name: 'dc1 patching',
      reason: 'kernel updates',
      match: { metrics: ['servers.dc1.*.cpu'], channels: ['pager'] },
      start_time: '02:00',
      repeat: ['sun', 'sat', 'sun'],
      timezone: 'UTC+02:00',
      duration: 120,
    });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const read = await server.request('GET', `${WINDOWS}${id}/`);
    expect(read.body).toEqual({
      id,
      name: 'dc1 patching',
      reason: 'kernel updates',
      match: { metrics: ['servers.dc1.*.cpu'], channels: [pager] },
      starts_at: null,
      start_time: '02:00',
      repeat: ['sat', 'sun'],
      timezone: 'UTC+2',
      duration: 120,
      created_by: 'api',
      updated_by: 'api',
      // Saturday's or Sunday's 02:00 at UTC+2: midnight UTC (active when the test runs inside it).
      next_occurrence: { starts_at: expect.stringMatching(/T00:00:00\.000Z$/), ends_at: expect.stringMatching(/T02:00:00\.000Z$/), active: expect.any(Boolean) },
    });
    expect([0, 6]).toContain(new Date(read.body.next_occurrence.starts_at).getUTCDay());

    for (const name of ['release freeze a', 'release freeze b', 'release freeze c']) {
      expect((await server.request('POST', WINDOWS, oneOff(name))).status).toBe(201);
    }
    const first = await server.request('GET', `${WINDOWS}?search=FREEZE&max=2`);
    expect(first.body.maintenance_windows.map((w: { name: string }) => w.name)).toEqual(['release freeze a', 'release freeze b']);
    expect(first.body.next_page).toBe(2);
    const second = await server.request('GET', `${WINDOWS}?search=freeze&max=2&page=2`);
    expect(second.body).toMatchObject({ next_page: false, maintenance_windows: [{ name: 'release freeze c' }] });
    expect((await server.request('GET', `${WINDOWS}?search=kernel`)).body.maintenance_windows.map((w: { id: string }) => w.id)).toEqual([id]);

    // A PUT of the object as read, with one change: the rest stays; null clears recurrence for a one-off start.
    const updated = await server.request('PUT', `${WINDOWS}${id}/`, { ...read.body, duration: 30 });
    expect(updated.body).toMatchObject({ duration: 30, start_time: '02:00', repeat: ['sat', 'sun'] });
    const once = await server.request('PUT', `${WINDOWS}${id}/`, { start_time: null, repeat: null, starts_at: '2030-02-01T10:00:00+01:00' });
    expect(once.status).toBe(200);
    expect(once.body).toMatchObject({ starts_at: '2030-02-01T10:00:00+01:00', start_time: null, repeat: null, reason: 'kernel updates' });
    expect(once.body.next_occurrence).toEqual({ starts_at: '2030-02-01T09:00:00.000Z', ends_at: '2030-02-01T09:30:00.000Z', active: false });

    expect((await server.request('DELETE', `${WINDOWS}${id}/`)).body).toEqual({ id, deleted: true });
    expect((await server.request('GET', `${WINDOWS}${id}/`)).status).toBe(404);
    expect((await server.request('DELETE', `${WINDOWS}${id}/`)).status).toBe(404);
    // Another account sees none of these.
    expect((await server.request('GET', WINDOWS, undefined, { key: keys[1] })).body.maintenance_windows).toEqual([]);
  });

  it('refuses bad windows with 400 and the field at fault, a duplicate name with 409, never 500', async () => {
    expect(await problems({ name: 'x', starts_at: '2030-01-01T00:00:00Z', duration: 5 })).toEqual(['match']);
    expect(await problems(oneOff('x', { match: {} }))).toEqual(['match']);
    expect(await problems(oneOff('x', { match: { alert_names: [] } }))).toEqual(['match.alert_names']);
    expect(await problems(oneOff('x', { match: { hosts: ['a'] } }))).toEqual(['match.hosts']);
    expect(await problems(oneOff('x', { match: { metrics: ['servers.[z-a].cpu'] } }))).toEqual(['match.metrics[0]']);
    expect(await problems(oneOff('x', { match: { alert_names: Array.from({ length: 21 }, (_, i) => `a${i}`) } }))).toEqual(['match.alert_names']);
    expect(await problems(oneOff('x', { match: { alert_names: ['ok', 'a'.repeat(201)] } }))).toEqual(['match.alert_names[1]']);
    expect(await problems(oneOff('x', { match: { channels: ['nobody'] } }))).toEqual(['match.channels[0]']);
    expect(await problems(oneOff('x', { start_time: '02:00', repeat: ['mon'] }))).toEqual(['starts_at']);
    expect(await problems(oneOff('x', { starts_at: '2030-01-01 00:00' }))).toEqual(['starts_at']);
    expect(await problems({ name: 'x', match: { alert_names: ['a'] }, start_time: '24:00', repeat: ['someday'], duration: 5 })).toEqual(['start_time', 'repeat']);
    expect(await problems({ name: 'x', match: { alert_names: ['a'] }, start_time: '02:00', duration: 5 })).toEqual(['repeat']);
    expect(await problems(oneOff('x', { timezone: 'Mars/Olympus', duration: 0 }))).toEqual(['timezone', 'duration']);
    expect(await problems(oneOff('', { colour: 'red' }))).toEqual(['colour', 'name']);
    expect(await problems([1, 2])).toEqual(['']);
    const malformed = await server.request('POST', WINDOWS, '{"name":');
    expect(malformed.status).toBe(400);

    expect((await server.request('POST', WINDOWS, oneOff('twice'))).status).toBe(201);
    const again = await server.request('POST', WINDOWS, oneOff('twice'));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    const other = await server.request('POST', WINDOWS, oneOff('other'));
    expect((await server.request('PUT', `${WINDOWS}${other.body.id}/`, { name: 'twice' })).status).toBe(409);
    expect(await problems({ id: 'not-this-one' }, 'PUT', `${WINDOWS}${other.body.id}/`)).toEqual(['id']);
    expect((await server.request('GET', `${WINDOWS}?max=0`)).status).toBe(400);
  });

  it('holds at most 200 windows per account', async () => {
    const quotaKey = { key: keys[2] };
    for (let i = 0; i < 200; i += 1) expect((await server.request('POST', WINDOWS, oneOff(`w${i}`), quotaKey)).status).toBe(201);
    const over = await server.request('POST', WINDOWS, oneOff('w200'), quotaKey);
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe('quota_exceeded');
  });

  it('previews the alerts a match would mute now, whatever its timing, ANDing keys and ORing patterns', async () => {
    const preview = async (match: unknown) => {
      const answer = await server.request('POST', `${WINDOWS}preview/`, { match, start_time: '2' });
      expect(answer.status).toBe(200);
      return answer.body as { alerts: { id: string; name: string }[]; count: number };
    };
    expect(await preview({ alert_names: ['web-*'] })).toEqual({
      count: 3,
      alerts: ['web-1 cpu', 'web-2 cpu', 'web-3 cpu'].map((name) => ({ id: alertIds[name], name })),
    });
    expect((await preview({ metrics: ['servers.dc1.*.cpu', 'servers.dc1.db1.load'] })).count).toBe(3);
    expect((await preview({ metrics: ['servers.dc1.*'] })).count).toBe(0);
    expect((await preview({ channels: ['pager'] })).alerts.map((a) => a.name)).toEqual(['web-1 cpu', 'db primary load']);
    expect((await preview({ channels: [pager], alert_names: ['web-?*'] })).alerts.map((a) => a.name)).toEqual(['web-1 cpu']);
    expect((await server.request('POST', `${WINDOWS}preview/`, { match: { metrics: 'x' } })).status).toBe(400);
  });

  describe('evaluated with an injected clock', () => {
    it('mutes the matched alerts while active, pages what still alerts once the window ends, records muted_by_window once per episode and window_changed per write', async () => {
      // The points follow the injected clock: a cycle judges the buckets of its own time.
      let clock = Date.now();
      const render = await startFakeRender((request) => ({
        series: request.targets.map((target) => makeSeries(target, [95, 95], Math.floor(clock / 1000) - 30, 30)),
      }));
      const graphite = createGraphiteClient({ baseUrl: render.url });
      try {
        // A daily window at the current minute (UTC) a day ago: its episodes begin a day apart.
        const start = Math.floor(Date.now() / 60_000) * 60_000 - 86_400_000;
        const hhmm = new Date(start).toISOString().slice(11, 16);
        const made = await server.request('POST', WINDOWS, {
          name: 'web nightly',
          reason: 'deploys',
          match: { alert_names: ['web-1*', 'web-2*'] },
          start_time: hhmm,
          repeat: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          duration: 30,
        });
        expect(made.status).toBe(201);
        const windowId = made.body.id as string;

        // Two cycles in the first episode, one between episodes, one in the next.
        for (const offset of [1, 2, 90, 24 * 60 + 1]) {
          clock = start + offset * 60_000;
          await runEvaluationCycle({ store: server.store.evaluation, graphite, now: () => clock });
        }
        const timeline = async (name: string) =>
          (await server.request('GET', `/v2/alerts/${alertIds[name]}/timeline`)).body.entries as { kind: string; reason: string | null }[];
        const kinds = async (name: string, kind: string) => (await timeline(name)).filter((entry) => entry.kind === kind);
        expect(await kinds('web-1 cpu', 'muted_by_window')).toHaveLength(2);
        expect(await kinds('web-2 cpu', 'muted_by_window')).toHaveLength(2);
        expect(await kinds('web-3 cpu', 'muted_by_window')).toHaveLength(0);
        expect((await kinds('web-1 cpu', 'muted_by_window'))[0]!.reason).toMatch(/^muted by maintenance window "web nightly" until /);
        // Earlier tests' windows left their own entries: this window's are the ones that name it.
        const changes = async (name: string) =>
          (await kinds(name, 'window_changed')).map((entry) => entry.reason).filter((reason) => reason?.includes('"web nightly"'));
        expect(await changes('web-1 cpu')).toEqual(['maintenance window "web nightly" created by api: deploys']);
        expect(await changes('web-3 cpu')).toEqual([]);

        // The muted alert went alerting without a page, and was paged once, by the first cycle after the window
        // ended (it was still alerting: what is still broken after maintenance is heard of); the next episode of the
        // window held nothing more. The one outside the window paged at once.
        const deliveries = async (name: string) =>
          (await server.request('GET', `/v2/deliveries/?alert_id=${alertIds[name]}&state=pending&state=dead&state=delivered&max=100`)).body.deliveries;
        expect((await server.request('GET', `/v2/alerts/${alertIds['web-1 cpu']}/`)).body.status).toBe('alerting');
        const after = await deliveries('web-1 cpu');
        expect(after.map((d: { event: string }) => d.event)).toEqual(['alerting']);
        const sent = (await timeline('web-1 cpu')).filter((entry) => entry.kind === 'notification_sent');
        expect(sent.map((entry) => entry.reason)).toEqual(['alerting']);
        expect(await deliveries('db primary load')).toHaveLength(1);

        // A rename that stops matching web-2 records the change on both (before and after), and the deletion on web-1.
        await server.request('PUT', `${WINDOWS}${windowId}/`, { match: { alert_names: ['web-1*'] } });
        await server.request('DELETE', `${WINDOWS}${windowId}/`);
        expect(await changes('web-2 cpu')).toEqual([
          'maintenance window "web nightly" updated by api: deploys',
          'maintenance window "web nightly" created by api: deploys',
        ]);
        expect(await changes('web-1 cpu')).toEqual([
          'maintenance window "web nightly" deleted by api: deploys',
          'maintenance window "web nightly" updated by api: deploys',
          'maintenance window "web nightly" created by api: deploys',
        ]);
      } finally {
        await render.close();
      }
    });

    it('shows the window that mutes an alert in its mute status, and stops muting once the window is deleted', async () => {
      const made = await server.request('POST', WINDOWS, {
        name: 'db now',
        match: { metrics: ['servers.dc1.db1.load'] },
        starts_at: new Date(Date.now() - 60_000).toISOString(),
        duration: 60,
      });
      expect(made.status).toBe(201);
      const status = await server.request('GET', `/v2/alerts/${alertIds['db primary load']}/muted/`);
      expect(status.body).toMatchObject({ muted: true, duration: 59, maintenance_window: { id: made.body.id, name: 'db now' } });
      expect(Date.parse(status.body.maintenance_window.until)).toBe(Date.parse(made.body.starts_at) + 3_600_000);
      const overview = await server.request('GET', '/v2/alerts/overview/?state=muted');
      expect(overview.body.alerts.map((a: { name: string }) => a.name)).toEqual(['db primary load']);
      // One mute answer on every surface: the alert's own read object (and so `alertform status`) and the list say so too.
      expect((await server.request('GET', `/v2/alerts/${alertIds['db primary load']}/`)).body.muted).toBe(true);
      const listed = (await server.request('GET', '/v2/alerts/?max=100')).body.alerts as { name: string; muted: boolean }[];
      expect(listed.filter((a) => a.muted).map((a) => a.name)).toEqual(['db primary load']);
      expect(overview.body.alerts[0].muted_until).toBe(Math.floor(Date.parse(status.body.maintenance_window.until) / 1000));
      const unmatched = await server.request('GET', `/v2/alerts/${alertIds['web-3 cpu']}/muted/`);
      expect(unmatched.body.muted).toBe(false);
      expect(unmatched.body.maintenance_window).toBeUndefined();
      await server.request('DELETE', `${WINDOWS}${made.body.id}/`);
      expect((await server.request('GET', `/v2/alerts/${alertIds['db primary load']}/muted/`)).body.muted).toBe(false);
      expect((await server.request('GET', '/v2/alerts/overview/?state=muted')).body.alerts).toEqual([]);
      expect((await server.request('GET', `/v2/alerts/${alertIds['db primary load']}/`)).body.muted).toBe(false);
    });
  });
});
