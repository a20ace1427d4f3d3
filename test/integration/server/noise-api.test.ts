import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// The noise-control fields of the API on both stores: depends_on, group_by, and who muted and why.
describeEachStore('noise control in the API on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb() });
  });
  afterAll(() => server.close());

  let n = 0;
  async function createAlert(overrides: Record<string, unknown> = {}): Promise<string> {
    const response = await server.request('POST', '/v2/alerts/', { name: `alert-${++n}`, metric: 'hosts.*.cpu', alert_criteria: { type: 'above', above_value: 1 }, ...overrides });
    expect(response.status, response.text).toBe(201);
    return response.body.id;
  }
  const problemsOf = (response: { status: number; body: any }) => [response.status, response.body.error.code, response.body.error.details.map((d: any) => `${d.path}: ${d.message}`)];

  it('takes parents by name or id, reads them back as ids, and drops a deleted parent from its children', async () => {
    const ping = await createAlert({ name: 'ping' });
    const child = await createAlert({ depends_on: [{ alert: 'ping', nodes: [1] }] });
    const read = await server.request('GET', `/v2/alerts/${child}`);
    expect(read.body.depends_on).toEqual([{ alert: ping, nodes: [1] }]);
    expect((await server.request('GET', `/v2/alerts/${ping}`)).body.depends_on).toBeNull();
    // An object read back is a valid update (no perpetual change).
    expect((await server.request('PUT', `/v2/alerts/${child}`, read.body)).body.depends_on).toEqual([{ alert: ping, nodes: [1] }]);
    expect((await server.request('DELETE', `/v2/alerts/${ping}`)).status).toBe(200);
    expect((await server.request('GET', `/v2/alerts/${child}`)).body.depends_on).toBeNull();
  });

  it('answers 400 with JSON for an unknown parent, itself, a cycle, mismatched nodes and more than 10', async () => {
    const a = await createAlert({ name: 'cycle-a' });
    const b = await createAlert({ name: 'cycle-b', depends_on: [{ alert: a }] });
    expect(problemsOf(await server.request('PUT', `/v2/alerts/${a}`, { depends_on: [{ alert: 'cycle-b' }] }))).toEqual([
      400, 'invalid_body', ['depends_on: a dependency cycle: "cycle-a -> cycle-b -> cycle-a"'],
    ]);
    expect(problemsOf(await server.request('PUT', `/v2/alerts/${b}`, { depends_on: [{ alert: b }] }))).toEqual([400, 'invalid_body', ['depends_on.0.alert: an alert cannot depend on itself']]);
    expect(problemsOf(await server.request('POST', '/v2/alerts/', { name: 'x', metric: 'm', alert_criteria: { type: 'above', above_value: 1 }, depends_on: [{ alert: 'nope' }] }))).toEqual([
      400, 'invalid_body', ['depends_on.0.alert: no alert with id or name "nope"'],
    ]);
    expect(problemsOf(await server.request('PUT', `/v2/alerts/${b}`, { depends_on: [{ alert: a, nodes: [1], parent_nodes: [1, 2] }] }))).toEqual([
      400, 'invalid_body', ['depends_on.0.parent_nodes: must have as many nodes as nodes'],
    ]);
    const eleven = Array.from({ length: 11 }, () => ({ alert: a }));
    const tooMany = await server.request('PUT', `/v2/alerts/${b}`, { depends_on: eleven });
    expect([tooMany.status, tooMany.body.error.code]).toEqual([400, 'invalid_body']);
  });

  it('stores a channel grouping, reads it back, clears it with null, and refuses one out of bounds', async () => {
    const created = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'grouping', destination: 'https://hooks.example/g', group_by: { nodes: [1, 2] } });
    expect(created.status, created.text).toBe(201);
    const read = await server.request('GET', `/v2/notifications/${created.body.id}`);
    expect(read.body.group_by).toEqual({ nodes: [1, 2] });
    expect((await server.request('PUT', `/v2/notifications/${created.body.id}`, { group_by: null })).body.group_by).toBeNull();
    const bad = await server.request('PUT', `/v2/notifications/${created.body.id}`, { group_by: { nodes: [1], wait_seconds: 601 } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_body']);
  });

  it('records who muted and unmuted, and why, in the timeline (by defaults to "api")', async () => {
    const id = await createAlert();
    const other = await createAlert();
    expect((await server.request('POST', `/v2/alerts/${id}/muted/`, { duration: 30, by: 'ann', reason: 'disk swap' })).status).toBe(200);
    expect((await server.request('DELETE', `/v2/alerts/${id}/muted/`, { by: 'bob', reason: 'done early' })).status).toBe(200);
    expect((await server.request('POST', '/v2/alerts/muted/', { ids: [id, other], duration: 10 })).status).toBe(200);
    expect((await server.request('DELETE', '/v2/alerts/muted/', { ids: [id], reason: 'over' })).status).toBe(200);
    const entries = (await server.request('GET', `/v2/alerts/${id}/timeline`)).body.entries as { kind: string; by: string | null; reason: string }[];
    expect(entries.map((entry) => [entry.kind, entry.by, entry.reason.replace(/until [0-9T:.-]+Z/, 'until T')])).toEqual([
      ['unmuted', 'api', 'unmuted: over'],
      ['muted', 'api', 'muted for 10 minutes, until T'],
      ['unmuted', 'bob', 'unmuted: done early'],
      ['muted', 'ann', 'muted for 30 minutes, until T: disk swap'],
    ]);
    const tooLong = await server.request('POST', `/v2/alerts/${id}/muted/`, { duration: 5, by: 'x'.repeat(101) });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'invalid_body']);
  });
});
