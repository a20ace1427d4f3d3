import { connect, type Socket } from 'node:net';

/** A raw TCP connection to a server, recording what came back and when it was closed. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves when the server (or an error) closed the connection: ms since connect, and what came back. */
  closed: Promise<{ afterMs: number; response: string }>;
  /** Writes if the connection is still open; false once it is closed. */
  write(data: string | Buffer): boolean;
}

/** Opens a TCP connection to a http://host:port URL, for requests no HTTP client would send (slow, partial). */
export async function openRawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = performance.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  // Writes racing the server's close fail with EPIPE/ECONNRESET: that is the close being tested, not an error.
  socket.on('error', () => {});
  const closed = new Promise<{ afterMs: number; response: string }>((resolve) =>
    socket.once('close', () => resolve({ afterMs: performance.now() - started, response: received })),
  );
  return {
    socket,
    received: () => received,
    closed,
    write: (data) => {
      if (socket.destroyed || socket.writableEnded) return false;
      socket.write(data);
      return true;
    },
  };
}

/** Calls `send` every `everyMs` until the connection closes; returns the close. */
export async function trickle(connection: RawConnection, everyMs: number, send: (n: number) => string) {
  let n = 0;
  const timer = setInterval(() => {
    if (!connection.write(send(n++))) clearInterval(timer);
  }, everyMs);
  try {
    return await connection.closed;
  } finally {
    clearInterval(timer);
  }
}
