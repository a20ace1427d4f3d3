import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertformClient } from '../../../src/client/api.js';
import type { MaintenanceWindowRead } from '../../../src/model/types.js';

/**
 * The client's calls of /v2/maintenance_windows/ against a scripted fixture of the shapes contracts fix (the server's
 * own tests run against alertform serve: test/integration/reconciler/maintenance-windows.test.ts).
 */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

async function fixture(handler: (req: IncomingMessage, body: unknown, res: ServerResponse) => void): Promise<{ client: AlertformClient; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      seen.push({ method: req.method!, url: req.url!, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { client: new AlertformClient({ server: url, apiKey: 'k', retry: { retries: 2, sleep: async () => {} } }), seen };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const window = (id: string): MaintenanceWindowRead => ({ id, name: `w-${id}`, reason: null, match: { alert_names: ['*'] }, starts_at: '2026-12-24T21:00:00Z', start_time: null, repeat: null, timezone: 'UTC', duration: 60 });

describe('the client of /v2/maintenance_windows/', () => {
  it('lists every page', async () => {
    const { client, seen } = await fixture((req, _body, res) => {
      const page = new URL(req.url!, 'http://x').searchParams.get('page');
      json(res, 200, page === '1' ? { maintenance_windows: [window('1')], next_page: 2 } : { maintenance_windows: [window('2')], next_page: false });
    });
    expect((await client.listMaintenanceWindows())!.map((w) => w.id)).toEqual(['1', '2']);
    expect(seen.map((s) => s.url)).toEqual(['/v2/maintenance_windows/?page=1&max=100', '/v2/maintenance_windows/?page=2&max=100']);
  });

  it('reads a server without the endpoint as having none (undefined)', async () => {
    const { client } = await fixture((_req, _body, res) => json(res, 404, { error: { code: 'not_found', message: 'no such path' } }));
    expect(await client.listMaintenanceWindows()).toBeUndefined();
  });

  it('creates, updates and deletes; a delete of what is gone counts as done', async () => {
    const { client, seen } = await fixture((req, _body, res) => {
      if (req.method === 'POST') return json(res, 201, { id: 'w9', url: '/v2/maintenance_windows/w9/' });
      if (req.method === 'PUT') return json(res, 200, window('w9'));
      return json(res, 404, { error: { code: 'not_found', message: 'gone' } });
    });
    const body = { name: 'w', match: { metrics: ['a.*'] }, start_time: '02:00', repeat: ['sun' as const], timezone: 'Europe/Berlin', duration: 30 };
    expect(await client.createMaintenanceWindow(body)).toBe('w9');
    await client.updateMaintenanceWindow('w9', { duration: 45, starts_at: null });
    await client.deleteMaintenanceWindow('w9');
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/v2/maintenance_windows/', body],
      ['PUT', '/v2/maintenance_windows/w9/', { duration: 45, starts_at: null }],
      ['DELETE', '/v2/maintenance_windows/w9/', undefined],
    ]);
  });

  it('never duplicates a create: after a lost answer it finds the window by name through ?search=', async () => {
    let posts = 0;
    const { client, seen } = await fixture((req, _body, res) => {
      if (req.method === 'POST') {
        posts += 1;
        // The first attempt lands but its answer is lost.
        return json(res, 503, { error: { code: 'unavailable', message: 'try again' } });
      }
      json(res, 200, { maintenance_windows: posts > 0 ? [{ ...window('w1'), name: 'nightly' }] : [], next_page: false });
    });
    expect(await client.createMaintenanceWindow({ name: 'nightly', match: { alert_names: ['*'] }, starts_at: '2026-12-24T21:00:00Z', duration: 5 })).toBe('w1');
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
    expect(seen[1]!.url).toBe('/v2/maintenance_windows/?search=nightly&page=1&max=100');
  });
});
