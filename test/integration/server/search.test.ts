import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Both stores: search runs in each store's own SQL.
describeEachStore('on $name', (backend) => {

  let server: TestServer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb() });
    await server.request('POST', '/v2/notifications/', { type: 'slack', description: 'Team-Payments', destination: 'https://example.com/s' });
    const alerts: Array<[string, string, string[]?]> = [
      ['web cpu', 'web.*.cpu'],
      ['web memory', 'web.*.mem'],
      ['db cpu', 'db.*.cpu'],
      ['checkout', 'shop.checkout.errors', ['Team-Payments']],
      ['100%_literal', 'x.y'],
    ];
    for (const [name, metric, channels] of alerts) {
      const response = await server.request('POST', '/v2/alerts/', {
        name, metric, alert_criteria: { type: 'above', above_value: 1 }, ...(channels ? { notification_channels: channels } : {}),
      });
      ids[name] = response.body.id;
    }
  });
  afterAll(() => server.close());

  const names = async (query: string) => {
    const response = await server.request('GET', `/v2/alerts/${query}`);
    expect(response.status).toBe(200);
    return response.body.alerts.map((alert: { name: string }) => alert.name);
  };

  describe('alert search', () => {
    it('an empty query returns every alert, oldest first, with next_page false', async () => {
      const response = await server.request('GET', '/v2/alerts/?');
      expect(response.body.next_page).toBe(false);
      expect(response.body.alerts.map((a: { name: string }) => a.name)).toEqual(['web cpu', 'web memory', 'db cpu', 'checkout', '100%_literal']);
    });

    it('ORs repeated names and ids together', async () => {
      expect(await names('?name=web%20cpu&name=db%20cpu')).toEqual(['web cpu', 'db cpu']);
      expect(await names(`?name=checkout&id=${ids['web memory']}`)).toEqual(['web memory', 'checkout']);
      expect(await names('?name=nothing')).toEqual([]);
    });

    it('ANDs search (case-insensitive substring of name, metric or channel description) with the rest', async () => {
      expect(await names('?search=CPU')).toEqual(['web cpu', 'db cpu']);
      expect(await names('?search=.mem')).toEqual(['web memory']);
      expect(await names('?search=payments')).toEqual(['checkout']);
      expect(await names('?search=cpu&name=web%20cpu&name=checkout')).toEqual(['web cpu']);
      expect(await names('?search=%25_')).toEqual(['100%_literal']);
    });

    it('pages with max and page; next_page says whether a further page has items', async () => {
      const page = (p: number, max: number) => server.request('GET', `/v2/alerts/?page=${p}&max=${max}`);
      expect((await page(1, 2)).body).toMatchObject({ next_page: true });
      expect((await page(3, 2)).body.alerts).toHaveLength(1);
      expect((await page(3, 2)).body.next_page).toBe(false);
      // Exactly filling the last page: no further page.
      expect((await page(1, 5)).body.next_page).toBe(false);
      expect((await page(1, 4)).body.next_page).toBe(true);
      expect((await page(9, 2)).body).toEqual({ alerts: [], next_page: false });
      expect((await page(1, 100)).body.alerts).toHaveLength(5);
    });

    it('answers 400 invalid_query for bad page, max or unknown parameters', async () => {
      for (const query of ['?page=0', '?page=-1', '?page=x', '?max=0', '?max=101', '?max=1.5', '?colour=red', '?search=a&search=b']) {
        const response = await server.request('GET', `/v2/alerts/${query}`);
        expect([query, response.status, response.body.error.code]).toEqual([query, 400, 'invalid_query']);
        expect(response.body.error.details[0].path).toBeTruthy();
      }
    });
  });

  describe('channel search', () => {
    beforeAll(async () => {
      await server.request('POST', '/v2/notifications/', { type: 'pagerduty', description: 'pd-auto', destination: 'k', auto_resolve: true });
      await server.request('POST', '/v2/notifications/', { type: 'pagerduty', description: 'pd-manual', destination: 'k' });
      await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: 'https://example.com/h' });
    });
    const descriptions = async (query: string) => {
      const response = await server.request('GET', `/v2/notifications/${query}`);
      expect(response.status).toBe(200);
      return response.body.notifications.map((c: { description: string }) => c.description);
    };

    it('ORs every criterion', async () => {
      expect(await descriptions('?type=webhook&description=Email%20me')).toEqual(['Email me', 'hook']);
      expect(await descriptions('?descriptions=pd-manual&descriptions=hook')).toEqual(['pd-manual', 'hook']);
      expect(await descriptions('?auto_resolve=true')).toEqual(['pd-auto']);
      expect(await descriptions('?auto_resolve=false')).toEqual(['pd-manual']);
      expect(await descriptions('?auto_resolve=true&type=slack')).toEqual(['Team-Payments', 'pd-auto']);
    });

    it('reads query booleans as Python clients send them (True/False)', async () => {
      expect(await descriptions('?auto_resolve=True')).toEqual(['pd-auto']);
      expect(await descriptions('?auto_resolve=False')).toEqual(['pd-manual']);
    });

    it('pages and rejects bad queries with 400', async () => {
      const first = await server.request('GET', '/v2/notifications/?max=2');
      expect(first.body.notifications).toHaveLength(2);
      expect(first.body.next_page).toBe(true);
      for (const query of ['?type=fax', '?auto_resolve=maybe', '?max=101', '?page=0', '?unknown=1']) {
        const response = await server.request('GET', `/v2/notifications/${query}`);
        expect([query, response.status, response.body.error.code]).toEqual([query, 400, 'invalid_query']);
      }
    });
  });

  describe('search over additional criteria (as the public docs\' search does)', () => {
    it('matches the metric of an additional criterion, in search and in bulk mute', async () => {
      const composite = await server.request('POST', '/v2/alerts/', {
        name: 'composite-queue',
        metric: 'workers.count',
        alert_criteria: { type: 'below', below_value: 1 },
        additional_criteria: { b: { type: 'above', above_value: 1000, metric: 'Queue.Backlog.depth' } },
        expression: 'a && b',
      });
      expect(composite.status).toBe(201);
      expect(await names('?search=backlog')).toEqual(['composite-queue']);
      const muted = await server.request('POST', '/v2/alerts/muted/', { search: 'queue.backlog', duration: 5 });
      expect(muted.body).toEqual({ ids: [composite.body.id], duration: 5 });
      expect((await server.request('DELETE', '/v2/alerts/muted/', { search: 'BACKLOG' })).body.ids).toEqual([composite.body.id]);
    });
  });
});
