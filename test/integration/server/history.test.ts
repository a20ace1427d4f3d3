import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Both stores: the same API on SQLite and on PostgreSQL.
describeEachStore('on $name', (backend) => {

  let server: TestServer;
  const now = Date.UTC(2026, 5, 1, 0, 0, 0);
  const nowSeconds = now / 1000;
  let first: string;
  let second: string;
  let quiet: string;

  beforeAll(async () => {
    server = await startTestServer({ now: () => now, db: await backend.createDb() });
    const make = async (name: string) =>
      (await server.request('POST', '/v2/alerts/', { name, metric: `${name}.*`, alert_criteria: { type: 'above', above_value: 1 } })).body.id as string;
    first = await make('first');
    second = await make('second');
    quiet = await make('quiet');
    await server.store.history.appendHistory([
      { alertId: first, status: 'alerting', value: 5, time: nowSeconds - 3600, metric: 'first.a' },
      { alertId: first, status: 'recovered', value: 0.5, time: nowSeconds - 60, metric: 'first.a' },
      { alertId: first, status: 'alerting', value: 7, time: nowSeconds - 5 * 86_400, metric: 'first.b' },
      { alertId: second, status: 'alerting', value: null, time: nowSeconds - 120, metric: 'second.x' },
      { alertId: 'deleted-meanwhile', status: 'alerting', value: 1, time: nowSeconds, metric: 'x' },
    ]);
  });
  afterAll(() => server.close());

  const history = (query = '') => server.request('GET', `/v2/alerts/history/${query}`);

  describe('alert history', () => {
    it('answers entries of the last 3 days keyed by alert id, newest first; alerts without entries do not appear', async () => {
      const response = await history();
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        [first]: [
          { status: 'recovered', value: 0.5, time: String(nowSeconds - 60), metric: 'first.a' },
          { status: 'alerting', value: 5, time: String(nowSeconds - 3600), metric: 'first.a' },
        ],
        [second]: [{ status: 'alerting', value: null, time: String(nowSeconds - 120), metric: 'second.x' }],
      });
      expect(response.body).not.toHaveProperty(quiet);
    });

    it('filters by id (alias alert_id), days, status, value and time', async () => {
      expect(Object.keys((await history(`?id=${second}`)).body)).toEqual([second]);
      expect(Object.keys((await history(`?alert_id=${first}&alert_id=${second}`)).body).sort()).toEqual([first, second].sort());
      expect((await history(`?id=${first}&days=7`)).body[first]).toHaveLength(3);
      expect((await history('?status=recovered')).body).toEqual({ [first]: [expect.objectContaining({ status: 'recovered' })] });
      expect((await history('?value=5')).body[first]).toEqual([expect.objectContaining({ value: 5 })]);
      expect((await history(`?time=${nowSeconds - 130}`)).body).toEqual({
        [first]: [expect.objectContaining({ status: 'recovered' })],
        [second]: [expect.objectContaining({ status: 'alerting' })],
      });
    });

    it('answers 400 invalid_query for unknown parameters and malformed values', async () => {
      for (const query of ['?days=0', '?days=91', '?days=two', '?status=healthy', '?value=abc', '?time=yesterday', '?colour=red', '?id=unknown', '?days=1&days=2']) {
        const response = await history(query);
        expect([query, response.status, response.body.error.code]).toEqual([query, 400, 'invalid_query']);
      }
    });

    it('drops the history of a deleted alert with it', async () => {
      await server.request('DELETE', `/v2/alerts/${second}`);
      expect((await history()).body).not.toHaveProperty(second);
    });
  });
});
