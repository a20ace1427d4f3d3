import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the server smoke', () => {
  it('creates and reads an alert', async () => {
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'cpu',
      metric: 'host.cpu',
      alert_criteria: { type: 'above', above_value: 90 },
    });
    expect(created.status).toBe(201);
    const read = await server.request('GET', `/v2/alerts/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('cpu');
    const read2 = await server.request('GET', `/v2/alerts/${created.body.id}/`);
    expect(read2.body).toEqual(read.body);
    const list = await server.request('GET', `/v2/alerts`);
    expect(list.body.alerts).toHaveLength(1);
    const noauth = await server.request('GET', `/v2/alerts/`, undefined, { key: null });
    expect(noauth.status).toBe(401);
    const channels = await server.request('GET', `/v2/notifications/`);
    expect(channels.body.notifications[0].description).toBe('Email me');
    expect(read.body.notification_channels).toEqual([channels.body.notifications[0].id]);
  });
});
