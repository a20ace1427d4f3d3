import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Both stores: every query is scoped to the account in each store's own SQL.
describeEachStore('on $name', (backend) => {

  let server: TestServer;
  let alice: string;
  let bob: string;
  let aliceAlert: string;
  let aliceChannel: string;
  let aliceSchedule: string;

  beforeAll(async () => {
    server = await startTestServer({ keys: ['alice-key', 'bob-key'], db: await backend.createDb() });
    [alice, bob] = server.keys as [string, string];
    aliceChannel = (await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'alice hook', destination: 'https://example.com/a' }, { key: alice })).body.id;
    aliceSchedule = (await server.request('POST', '/v2/schedules/', { name: 'alice window', start_time: '01:00', duration: 5 }, { key: alice })).body.id;
    aliceAlert = (
      await server.request('POST', '/v2/alerts/', { name: 'alice alert', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['alice hook'], scheduled_mutes: [aliceSchedule] }, { key: alice })
    ).body.id;
    await server.store.history.appendHistory([{ alertId: aliceAlert, status: 'alerting', value: 2, time: Math.floor(Date.now() / 1000), metric: 'a.b' }]);
  });
  afterAll(() => server.close());

  const asBob = (method: string, path: string, body?: unknown) => server.request(method, path, body, { key: bob });

  describe('one account never sees, changes or deletes another account\'s data', () => {
    it('searches show only the account\'s own resources', async () => {
      expect((await asBob('GET', '/v2/alerts/')).body.alerts).toEqual([]);
      expect((await asBob('GET', `/v2/alerts/?id=${aliceAlert}&name=alice%20alert`)).body.alerts).toEqual([]);
      const channels = (await asBob('GET', `/v2/notifications/?id=${aliceChannel}&description=alice%20hook`)).body.notifications;
      expect(channels).toEqual([]);
      expect((await asBob('GET', '/v2/notifications/')).body.notifications.map((c: { description: string }) => c.description)).toEqual(['Email me']);
      expect((await asBob('GET', '/v2/schedules/')).body.scheduled_mutes).toEqual([]);
      expect((await asBob('GET', '/v2/alerts/history/')).body).toEqual({});
    });

    it('another account\'s items answer exactly as missing ones', async () => {
      const expectations: Array<[string, string, unknown, number]> = [
        ['GET', `/v2/alerts/${aliceAlert}/`, undefined, 404],
        ['PUT', `/v2/alerts/${aliceAlert}/`, { name: 'stolen' }, 404],
        ['DELETE', `/v2/alerts/${aliceAlert}/`, undefined, 400],
        ['POST', `/v2/alerts/${aliceAlert}/muted/`, { duration: 5 }, 404],
        ['DELETE', `/v2/alerts/${aliceAlert}/muted/`, undefined, 404],
        ['GET', `/v2/alerts/${aliceAlert}/muted/`, undefined, 404],
        ['POST', '/v2/alerts/muted/', { ids: [aliceAlert], duration: 5 }, 404],
        ['DELETE', '/v2/alerts/muted/', { ids: [aliceAlert] }, 404],
        ['GET', `/v2/alerts/history/?id=${aliceAlert}`, undefined, 400],
        ['GET', `/v2/notifications/${aliceChannel}/`, undefined, 400],
        ['PUT', `/v2/notifications/${aliceChannel}/`, { description: 'stolen' }, 404],
        ['DELETE', `/v2/notifications/${aliceChannel}/`, undefined, 404],
        ['GET', `/v2/schedules/${aliceSchedule}/`, undefined, 404],
        ['PUT', `/v2/schedules/${aliceSchedule}/`, { name: 'stolen' }, 404],
        ['DELETE', `/v2/schedules/${aliceSchedule}/`, undefined, 404],
      ];
      for (const [method, path, body, status] of expectations) {
        const response = await asBob(method, path, body);
        expect([method, path, response.status]).toEqual([method, path, status]);
      }
    });

    it('bulk mute without ids touches only the account\'s own alerts', async () => {
      const mine = (await asBob('POST', '/v2/alerts/', { name: 'bob alert', metric: 'b', alert_criteria: { type: 'above', above_value: 1 } })).body.id;
      expect((await asBob('POST', '/v2/alerts/muted/', { duration: 5 })).body.ids).toEqual([mine]);
      expect((await asBob('DELETE', '/v2/alerts/muted/', {})).body.ids).toEqual([mine]);
      expect((await server.request('GET', `/v2/alerts/${aliceAlert}/muted/`, undefined, { key: alice })).body.muted).toBe(false);
    });

    it('references to another account\'s channels and schedules are unknown', async () => {
      const response = await asBob('POST', '/v2/alerts/', {
        name: 'borrower', metric: 'b', alert_criteria: { type: 'above', above_value: 1 },
        notification_channels: [aliceChannel, 'alice hook'], scheduled_mutes: [aliceSchedule],
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.map((d: { path: string }) => d.path)).toEqual([
        'notification_channels.0', 'notification_channels.1', 'scheduled_mutes.0',
      ]);
    });

    it('names are unique per account, not across accounts', async () => {
      expect((await asBob('POST', '/v2/alerts/', { name: 'alice alert', metric: 'b', alert_criteria: { type: 'above', above_value: 1 } })).status).toBe(201);
      expect((await asBob('POST', '/v2/notifications/', { type: 'webhook', description: 'alice hook', destination: 'https://example.com/b' })).status).toBe(201);
      expect((await asBob('POST', '/v2/schedules/', { name: 'alice window', start_time: '01:00', duration: 5 })).status).toBe(201);
    });

    it('alice still has all of her data, unchanged', async () => {
      const read = await server.request('GET', `/v2/alerts/${aliceAlert}`, undefined, { key: alice });
      expect(read.body).toMatchObject({ name: 'alice alert', notification_channels: [aliceChannel], scheduled_mutes: [aliceSchedule] });
      expect((await server.request('GET', `/v2/notifications/${aliceChannel}`, undefined, { key: alice })).body.description).toBe('alice hook');
      expect((await server.request('GET', `/v2/schedules/${aliceSchedule}`, undefined, { key: alice })).body.name).toBe('alice window');
      expect(Object.keys((await server.request('GET', '/v2/alerts/history/', undefined, { key: alice })).body)).toEqual([aliceAlert]);
    });
  });
});
