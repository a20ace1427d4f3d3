import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Past this many bytes a message is cut off and its connection closed: the sink keeps nothing, but stays bounded. */
const MAX_LINE_BYTES = 64 * 1024;

/**
 * A mail sink for `alertform demo` on 127.0.0.1 (port 0): just enough SMTP (RFC 5321: greeting, EHLO/HELO, MAIL,
 * RCPT, DATA, RSET, NOOP, QUIT; no TLS, no AUTH) for nodemailer to hand over the demo's email notifications, which
 * it accepts and counts but neither keeps nor forwards. The demo's email channel then delivers instead of being
 * dead-lettered for want of an SMTP server, and nothing leaves the machine. Fifty lines of our own rather than
 * smtp-server, a development dependency that the package does not ship.
 */
export async function startDemoMailSink(): Promise<{ url: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setEncoding('latin1');
    const reply = (...lines: string[]) => socket.write(lines.map((line) => `${line}\r\n`).join(''));
    let buffer = '';
    let inData = false;
    reply('220 alertform-demo mail sink');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) {
            // Keep only what may begin the end marker: the message itself is dropped as it comes.
            buffer = buffer.slice(-4);
            return;
          }
          buffer = buffer.slice(end + 5);
          inData = false;
          received += 1;
          reply('250 accepted (and dropped: the demo keeps no mail)');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) {
          if (buffer.length > MAX_LINE_BYTES) socket.destroy();
          return;
        }
        const verb = buffer.slice(0, Math.min(eol, 4)).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (verb === 'EHLO') reply('250-alertform-demo', '250 8BITMIME');
        else if (verb === 'DATA') {
          inData = true;
          // The end marker is searched from the line break before it: the data starts on a new line.
          buffer = `\r\n${buffer}`;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
          return;
        } else if (['HELO', 'MAIL', 'RCPT', 'RSET', 'NOOP'].includes(verb)) reply('250 ok');
        else reply('502 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
