import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * What the network between a client and a server does, as a TCP proxy plays it:
 * - `pass`: forwards bytes as they come (after `latencyMs` each way);
 * - `stall`: holds every byte both ways, and delivers them when the link passes again (a congested link, or TCP
 *   retransmitting through a short outage);
 * - `partition`: a stall, and new connections are accepted but do not reach the server until the link passes
 *   again (their SYNs are lost): the client learns nothing until its own timeouts fire.
 */
export type LinkState = 'pass' | 'stall' | 'partition';

export interface TcpFaultProxy {
  /** The port clients connect to (127.0.0.1). */
  port: number;
  /** host:port, for a URL. */
  address: string;
  setState(state: LinkState): void;
  state(): LinkState;
  /** Delay of every chunk, each way, ms. */
  setLatency(ms: number): void;
  /** Resets (RST) every open connection now: a NAT or a load balancer forgetting them. */
  resetAll(): number;
  /** Connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1:0 in front of `upstreamPort`, whose link the test breaks at will. */
export async function startTcpFaultProxy(upstreamPort: number, upstreamHost = '127.0.0.1'): Promise<TcpFaultProxy> {
  let state: LinkState = 'pass';
  let latencyMs = 0;
  let accepted = 0;
  const pairs = new Set<{ client: Socket; upstream: Socket | null; held: (() => void)[] }>();
  /** Connections made during a partition: they reach the server once it heals (if the client still waits). */
  let pending: { client: Socket; open: () => void }[] = [];

  const server: Server = createServer((client) => {
    accepted += 1;
    const pair: { client: Socket; upstream: Socket | null; held: (() => void)[] } = { client, upstream: null, held: [] };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('error', drop);
    client.on('close', drop);
    const open = () => {
      const upstream = connect(upstreamPort, upstreamHost);
      pair.upstream = upstream;
      upstream.on('error', drop);
      upstream.on('close', drop);
      /** Sends `chunk` on when the link allows: now, after the latency, when a stall ends, or never (partition). */
      const relay = (to: Socket) => (chunk: Buffer) => {
        const send = () => {
          if (!to.destroyed) to.write(chunk);
        };
        if (state !== 'pass' || pair.held.length > 0) pair.held.push(send);
        else if (latencyMs > 0) setTimeout(send, latencyMs);
        else send();
      };
      client.on('data', relay(upstream));
      upstream.on('data', relay(client));
    };
    if (state === 'partition') pending.push({ client, open });
    else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    address: `127.0.0.1:${port}`,
    setState(next) {
      state = next;
      if (next !== 'pass') return;
      for (const pair of pairs) for (const send of pair.held.splice(0)) send();
      for (const connection of pending.splice(0)) if (!connection.client.destroyed) connection.open();
    },
    state: () => state,
    setLatency(ms) {
      latencyMs = ms;
    },
    resetAll() {
      pending = [];
      const count = pairs.size;
      for (const pair of [...pairs]) {
        pair.client.resetAndDestroy();
        pair.upstream?.resetAndDestroy();
      }
      return count;
    },
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of [...pairs]) {
          pair.client.destroy();
          pair.upstream?.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
