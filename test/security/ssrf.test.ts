import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/server/net/address-class.js';
import { PUBLIC_ONLY, parseDestinationPolicy } from '../../src/server/net/destination-policy.js';
import { sendNotification } from '../../src/server/notifiers/send.js';
import { DEFAULT_NOTIFIER_SETTINGS, type NotifierSettings } from '../../src/server/notifiers/delivery.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnNodeServer } from '../helpers/server-process.js';
import { sendRequest, startTestServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { channel, plainNotification } from '../unit/server/notifiers/fixtures.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

// Issue 12, item 3. Before: every destination below was accepted and posted to, a 307 was followed with the body
// re-sent, and last_error said "webhook answered HTTP 401" (a port scanner). After: refused, not followed, classes.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const signal = () => AbortSignal.timeout(5_000);
const withPolicy = (destinations: NotifierSettings['destinations']): NotifierSettings => ({ ...DEFAULT_NOTIFIER_SETTINGS, destinations });

describe('every spelling of a forbidden address is recognised', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback address'],
    ['http://127.1/', 'loopback address'],
    ['http://2130706433/', 'loopback address'],
    ['http://0x7f000001/', 'loopback address'],
    ['http://0177.0.0.1/', 'loopback address'],
    ['http://[::1]/', 'loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'loopback address'],
    ['http://[::ffff:7f00:1]/', 'loopback address'],
    ['http://[64:ff9b::7f00:1]/', 'loopback address'],
    ['http://0.0.0.0/', 'unspecified address'],
    ['http://[::]/', 'unspecified address'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata address'],
    ['http://[fd00:ec2::254]/', 'metadata address'],
    ['http://169.254.1.1/', 'link-local address'],
    ['http://[fe80::1]/', 'link-local address'],
    ['http://10.1.2.3/', 'private address'],
    ['http://172.16.0.1/', 'private address'],
    ['http://192.168.1.1/', 'private address'],
    ['http://100.64.0.1/', 'private address'],
    ['http://[fc00::1]/', 'private address'],
    ['http://224.0.0.1/', 'multicast address'],
    ['http://[ff02::1]/', 'multicast address'],
    ['http://93.184.215.14/', null],
    ['http://[2606:4700::1111]/', null],
  ])('%s is a %s', (url, kind) => {
    expect(classifyAddress(new URL(url).hostname)).toBe(kind);
  });
});

describe('channel create refuses literal forbidden addresses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each(['http://127.0.0.1:8080/v2/alerts', 'http://localhost/', 'http://[::1]/', 'http://0.0.0.0/', 'http://127.1/', 'http://2130706433/', 'http://0x7f000001/', 'http://169.254.169.254/'])(
    'refuses %s with a class, not the URL',
    async (destination) => {
      for (const type of ['webhook', 'slack', 'victorops']) {
        const response = await server.request('POST', '/v2/notifications/', { type, description: `${type} ${destination}`, destination });
        expect(response.status).toBe(404);
        expect(response.body.error.details[0]).toEqual({ path: 'destination', message: expect.stringMatching(/^must not lead to a (loopback|unspecified|metadata) address/) });
        expect(response.text).not.toContain(destination);
      }
    },
  );

  it('accepts public hosts; names are judged at delivery', async () => {
    const response = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'public', destination: 'https://hooks.example.com/x' });
    expect(response.status).toBe(201);
  });
});

describe('deliveries are checked on the resolved address at connect time', () => {
  it('refuses a host name that resolves to loopback, and the receiver gets nothing', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const port = new URL(receiver.url).port;
    const failure = sendNotification(channel('webhook', `http://localhost:${port}/hook`), plainNotification(), withPolicy(PUBLIC_ONLY), signal());
    // Issue 19 item 7: a name's refusal reads as any unreachable name (test/security/tenant-low.test.ts).
    await expect(failure).rejects.toMatchObject({ message: 'webhook could not be reached', retryable: true });
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses IP literals in any spelling for webhook, slack and victorops', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const port = new URL(receiver.url).port;
    for (const type of ['webhook', 'slack', 'victorops'] as const) {
      for (const host of ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]']) {
        const url = `http://${host}:${port}/${type}/api-key/routing`;
        await expect(sendNotification(channel(type, url), plainNotification(), withPolicy(PUBLIC_ONLY), signal()), `${type} ${host}`).rejects.toMatchObject({
          message: `${type} destination refused: loopback address`,
        });
      }
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('allows what the operator listed, and only that; metadata stays refused under a plain opt-in', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    await sendNotification(channel('webhook', `${receiver.url}/ok`), plainNotification(), withPolicy(parseDestinationPolicy(['127.0.0.0/8'])), signal());
    expect((await receiver.next()).path).toBe('/ok');
    const port = new URL(receiver.url).port;
    await sendNotification(channel('webhook', `http://localhost:${port}/by-name`), plainNotification(), withPolicy(parseDestinationPolicy('localhost')), signal());
    expect((await receiver.next()).path).toBe('/by-name');
    await expect(
      sendNotification(channel('webhook', 'http://10.0.0.1/x'), plainNotification(), withPolicy(parseDestinationPolicy(['127.0.0.0/8'])), signal()),
    ).rejects.toMatchObject({ message: 'webhook destination refused: private address' });
    await expect(
      sendNotification(channel('webhook', 'http://169.254.169.254/x'), plainNotification(), withPolicy(parseDestinationPolicy(true)), signal()),
    ).rejects.toMatchObject({ message: 'webhook destination refused: metadata address' });
  });
});

describe('what a delivery failure says', () => {
  it('does not follow a redirect: a 307 is "redirect refused" and the body is not re-sent', async () => {
    const target = await startWebhookReceiver();
    closers.push(target.close);
    const redirector: Server = createServer((_req, res) => res.writeHead(307, { location: `${target.url}/stolen` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => redirector.close(() => resolve())));
    const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
    const failure = sendNotification(channel('webhook', url), plainNotification(), withPolicy(parseDestinationPolicy(true)), signal());
    await expect(failure).rejects.toMatchObject({ message: 'webhook redirect refused', retryable: false });
    expect(target.received).toHaveLength(0);
  });

  it('says the class of an HTTP answer, not the status', async () => {
    const receiver = await startWebhookReceiver(() => 401);
    closers.push(receiver.close);
    const failure = sendNotification(channel('webhook', receiver.url), plainNotification(), withPolicy(parseDestinationPolicy(true)), signal());
    await expect(failure).rejects.toMatchObject({ message: 'webhook answered HTTP 4xx', retryable: false });
  });

  it('shows the refusal as last_error through the API, from a real evaluation (DNS rebinding: saved as a name)', async () => {
    const receiver = await startWebhookReceiver();
    const render = await startFakeRender(() => ({ series: [makeSeries('ssrf.probe', [5, 5], Math.floor(Date.now() / 1000) - 30, 30)] }));
    closers.push(receiver.close, render.close);
    const server = await startTestServer({ graphiteUrl: render.url, evalIntervalSeconds: 1 });
    closers.push(server.close);
    // Written to the store as a name that was harmless when saved and resolves to 127.0.0.1 now.
    const account = (await server.store.accounts.findAccountByKey(server.key))!;
    const hook = await server.store.channels.createChannel(account.id, {
      type: 'webhook',
      description: 'rebound',
      destination: `http://localhost:${new URL(receiver.url).port}/hook`,
      autoResolve: false,
    });
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'probe',
      metric: 'ssrf.probe',
      alert_criteria: { type: 'above', above_value: 1 },
      notification_channels: [hook.id],
    });
    expect(created.status).toBe(201);
    let read = await server.request('GET', `/v2/notifications/${hook.id}/`);
    const deadline = Date.now() + 20_000;
    while (!read.body.last_error && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      read = await server.request('GET', `/v2/notifications/${hook.id}/`);
    }
    expect(read.body.last_error).toEqual({ time: expect.stringMatching(/^\d+$/), message: 'webhook could not be reached' });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('alertform serve --allow-private-destinations', () => {
  it.each([
    [['--allow-private-destinations'], {}, 201],
    [[], { ALERTFORM_ALLOW_PRIVATE_DESTINATIONS: 'true' }, 201],
    [['--allow-private-destinations', '10.0.0.0/8'], {}, 404],
    [[], {}, 404],
  ])('with %j %j, a loopback webhook is answered %i', async (args, env, status) => {
    const key = 'ssrf-flag-key-0123456789abcdef';
    const server = await spawnNodeServer(MAIN, ['serve', '--port', '0', '--db', ':memory:', ...args], {
      env: { ALERTFORM_API_KEYS: key, ALERTFORM_LOG_LEVEL: 'silent', ...env },
    });
    try {
      const created = await sendRequest(server.url, key, 'POST', '/v2/notifications/', { type: 'webhook', description: 'local', destination: 'http://127.0.0.1:9/hook' });
      expect(created.status).toBe(status);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('refuses an entry that is neither a CIDR nor a host name', async () => {
    const result = await runCli(['serve', '--db', ':memory:', '--allow-private-destinations', '10.0.0.0/99']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--allow-private-destinations: "10.0.0.0/99" has a bad prefix length');
  }, 90_000);
});
