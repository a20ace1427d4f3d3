import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/**
 * The first port of the kernel's ephemeral range: what it hands to `listen(0)` and to outgoing connections. A port
 * taken from that range and let go for a daemon to bind (carbon, graphite-web, PostgreSQL) could meanwhile go to one
 * of the hundreds of port-0 servers and client sockets a run opens: the daemon then fails to bind, and the check
 * that it listens connects to the other process instead. Ports below the range are never handed out that way.
 */
function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

/** Above the ports well-known services and registered daemons keep; a port found taken is simply skipped. */
const LOWEST = 10_000;

/** `count` free loopback ports below the ephemeral range, all held at once (no two the same), then let go. */
export async function freePorts(count: number): Promise<number[]> {
  const highest = ephemeralStart() - 1;
  // A machine whose ephemeral range starts this low leaves no room below it: the kernel's port-0 choice, as before.
  const room = highest - LOWEST + 1;
  const held: Server[] = [];
  try {
    while (held.length < count) {
      const port = room >= 1_000 ? LOWEST + Math.floor(Math.random() * room) : 0;
      const server = createServer();
      const bound = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (bound) held.push(server);
    }
    return held.map((server) => (server.address() as import('node:net').AddressInfo).port);
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** One free loopback port below the ephemeral range (held, then let go: the caller's daemon binds it right after). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}
