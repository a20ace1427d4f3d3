import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// The console's grouped overview: the account's alerts by path nodes, with the count of each state per group.
describe('GET /v2/alerts/overview/groups/', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    for (const [name, metric] of [
      ['web1', 'servers.dc1.web1.cpu'],
      ['web2', 'servers.dc1.web2.cpu'],
      ['web3', 'servers.dc2.web3.cpu'],
      ['sum', 'sumSeries(servers.dc2.*.load)'],
    ]) {
      const made = await server.request('POST', '/v2/alerts/', { name, metric, alert_criteria: { type: 'above', above_value: 1 } });
      expect(made.status).toBe(201);
    }
  });
  afterAll(() => server.close());

  it('counts the alerts of each group of the chosen nodes, from the metric path when nothing triggered', async () => {
    const answer = await server.request('GET', '/v2/alerts/overview/groups/?nodes=1');
    expect(answer.status).toBe(200);
    expect(answer.body.group_count).toBe(2);
    expect(answer.body.groups.map((g: { key: string; counts: { total: number } }) => [g.key, g.counts.total])).toEqual([
      ['dc1', 2],
      ['dc2', 2],
    ]);
    const two = await server.request('GET', '/v2/alerts/overview/groups/?nodes=1,3');
    expect(two.body.groups.map((g: { key: string }) => g.key)).toEqual(['dc1.cpu', 'dc2.cpu', 'dc2.load']);
  });

  it('refuses no nodes, too many and out-of-range indexes with 400', async () => {
    for (const query of ['', '?nodes=', '?nodes=-1', '?nodes=1,2,3,4,5,6', '?nodes=x', '?other=1']) {
      const answer = await server.request('GET', `/v2/alerts/overview/groups/${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe('invalid_query');
    }
  });
});
