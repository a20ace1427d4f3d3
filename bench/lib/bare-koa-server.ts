/**
 * The baseline of `npm run bench:server`: bare Koa answering the same three requests with fixed JSON of the same
 * shape and size as the real server's, with no auth, validation or storage. Started the same way as the real
 * server (a child `node --import tsx` process on 127.0.0.1, port 0) so that only the work inside differs.
 */
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { sampleAlertRead } from './sample-alert.js';

const one = sampleAlertRead('0'.repeat(32), 'bench alert 0');
const page = {
  alerts: Array.from({ length: 100 }, (_, i) => sampleAlertRead(randomBytes(16).toString('hex'), `bench alert ${i}`)),
  next_page: true,
};

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    // Read and parse the body as the real server must, then answer like a create.
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) chunks.push(chunk);
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const id = randomBytes(16).toString('hex');
    ctx.status = 201;
    ctx.body = { id, url: `/v2/alerts/${id}` };
  } else if (ctx.path.length > '/v2/alerts/'.length) {
    ctx.body = one;
  } else {
    ctx.body = page;
  }
});

const server = createServer(app.callback());
server.listen(0, '127.0.0.1');
await once(server, 'listening');
process.stdout.write(`bare koa listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
