import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';

// Before: the failed-login limiter counted per exact peer address, so one IPv6 host rotating through its /64 got a
// fresh window per address; email channels accepted `a@[127.0.0.1]` (a domain literal: the SMTP relay delivers to
// that host on its own network) while `a@localhost` was refused. After: IPv6 clients count per /64, and every
// email domain that names a host (literal, IP address, localhost) is refused.

const dir = mkdtempSync(join(tmpdir(), 'af-client-prefix-'));

// Addresses of two random /64s, put on the loopback interface so that a client can bind to them (needs root, as in CI).
const prefix = `fd00:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const otherPrefix = `${prefix.slice(0, -4)}${(parseInt(prefix.slice(-4), 16) ^ 1).toString(16).padStart(4, '0')}`;
const ours = Array.from({ length: 22 }, (_, i) => `${prefix}::${(i + 1).toString(16)}`);
const neighbour = `${otherPrefix}::1`;
const addresses = [...ours, neighbour];
/** One `ip` for all the addresses (-batch): each process a worker starts costs it dear (CONTRIBUTING.md). */
const ipBatch = (lines: string[], force = false) =>
  execFileSync('ip', ['-6', ...(force ? ['-force'] : []), '-batch', '-'], { input: lines.join('\n'), stdio: 'pipe' });
let cannotAdd: string | undefined;
try {
  ipBatch(addresses.map((address) => `addr add ${address}/128 dev lo nodad`));
} catch (error) {
  cannotAdd = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
}
if (cannotAdd && !process.env.CI) console.warn(`skipped the IPv6 /64 limiter test: cannot add addresses to lo (${cannotAdd})`);

let server: ServeProcess;
beforeAll(async () => {
  server = await spawnServe({ db: join(dir, 'limiter.db'), extraArgs: ['--host', '::1'] });
});
afterAll(async () => {
  await server?.stop();
  // -force: on past any address that a failed batch did not add, whose deletion alone fails then.
  try {
    ipBatch(addresses.map((address) => `addr del ${address}/128 dev lo`), true);
  } catch (error) {
    if (!cannotAdd) throw error;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** GET /v2/alerts/ from `localAddress` with `key`: the status. */
function getFrom(localAddress: string, key: string): Promise<number> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '::1', port, path: '/v2/alerts/', localAddress, headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the failed-login limiter on IPv6', () => {
  it.skipIf(cannotAdd !== undefined && !process.env.CI)('counts one /64 as one client: rotating addresses does not reset the window', async () => {
    expect(cannotAdd).toBeUndefined();
    const statuses: number[] = [];
    for (const address of ours.slice(0, 21)) statuses.push(await getFrom(address, `wrong-guess-${address}`));
    expect(statuses.slice(0, 20)).toEqual(new Array(20).fill(401));
    expect(statuses[20]).toBe(429);
    // Another address of the same /64 is the same client; a right key still gets through.
    expect(await getFrom(ours[21]!, 'wrong-guess-again')).toBe(429);
    expect(await getFrom(ours[21]!, server.key)).toBe(200);
    // The next /64 is another client.
    expect(await getFrom(neighbour, 'wrong-guess-neighbour')).toBe(401);
  });
});

describe('email destinations', () => {
  it.each(['oncall@[127.0.0.1]', 'oncall@[::ffff:169.254.169.254]', 'oncall@127.0.0.1', 'oncall@10.0.0.0x1', 'oncall@mail.localhost', 'ok@example.com, oncall@[10.0.0.1]'])(
    'refuses %s as a destination, as a@localhost is',
    async (destination) => {
      const created = await callServe(server, 'POST', '/v2/notifications/', { type: 'email', description: `mail ${destination}`, destination });
      expect(created.status).toBe(404);
      expect(created.body.error.code).toBe('invalid_body');
      expect(created.body.error.details).toEqual([expect.objectContaining({ path: 'destination', message: expect.stringContaining('has an IP address or localhost as its domain') })]);
    },
  );

  it('still takes mail domains, and refuses the literal on update too', async () => {
    const created = await callServe(server, 'POST', '/v2/notifications/', { type: 'email', description: 'team mail', destination: 'oncall@example.com' });
    expect(created.status).toBe(201);
    const updated = await callServe(server, 'PUT', `/v2/notifications/${created.body.id}/`, { destination: 'oncall@[127.0.0.1]' });
    expect(updated.status).toBe(400);
    expect(updated.body.error.details[0].path).toBe('destination');
    expect((await callServe(server, 'GET', `/v2/notifications/${created.body.id}/`)).body.destination).toBe('oncall@example.com');
  });
});
