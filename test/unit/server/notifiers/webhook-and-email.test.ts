import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildEmail, closeEmailTransports, escapeHtml } from '../../../../src/server/notifiers/email.js';
import { sendNotification } from '../../../../src/server/notifiers/send.js';
import { startWebhookReceiver } from '../../../helpers/webhook-receiver.js';
import { channel, compositeNotification, plainNotification, settings } from './fixtures.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});
afterAll(() => closeEmailTransports());

const signal = () => AbortSignal.timeout(5_000);

describe('webhook', () => {
  it('posts {name, criteria, graph, value, metric, status, backoff_minutes, info} and the console link', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    await sendNotification(channel('webhook', `${receiver.url}/hook?token=abc`), plainNotification(), settings(), signal());
    const request = await receiver.next();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hook?token=abc');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({
      name: 'CPU "hot" <web> & co',
      criteria: 'above 90 for 5 minutes',
      graph: 'https://alertform.example/v2/graphs/eyJhIjoiYWxfMTIzIn0.c2ln.png',
      value: 95.5,
      metric: 'web.2.cpu',
      status: 'alerting',
      backoff_minutes: 30,
      info: 'Check the runbook: https://runbooks.example/cpu',
      console_url: 'https://alertform.example/alerts/al_123',
    });
  });

  it('adds expression, conditions and triggered_metrics for composite alerts', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    await sendNotification(channel('webhook', receiver.url), compositeNotification(), settings(), signal());
    const { body } = await receiver.next();
    expect(body).toMatchObject({
      name: 'Composite',
      status: 'alerting',
      backoff_minutes: null,
      expression: 'a && b',
      conditions: {
        a: { metric: 'web.*.cpu', criteria: 'above 90 for 5 minutes', state: 'holds', triggered_metrics: [{ metric: 'web.2.cpu', value: 95.5 }] },
        b: { metric: 'web.*.free', criteria: 'below 1', state: 'holds', triggered_metrics: [{ metric: 'web.2.free', value: 0.5 }] },
      },
      triggered_metrics: [
        { metric: 'web.2.cpu', value: 95.5 },
        { metric: 'web.2.free', value: 0.5 },
      ],
    });
  });

  it('carries the delivery id as the body id and the Idempotency-Key header, and leaves both out without one', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    await sendNotification(channel('webhook', receiver.url), { ...plainNotification(), deliveryId: 'd-123' }, settings(), signal());
    const request = await receiver.next();
    expect(request.headers['idempotency-key']).toBe('d-123');
    expect(request.body).toMatchObject({ id: 'd-123', status: 'alerting' });
    expect(Object.keys(request.body as object)[0]).toBe('id');
  });

  it('reads Retry-After from a 429 or 503 into the error', async () => {
    const receiver = await startWebhookReceiver(() => ({ status: 429, headers: { 'retry-after': '7' } }));
    closers.push(receiver.close);
    const failure = sendNotification(channel('webhook', receiver.url), plainNotification(), settings(), signal());
    await expect(failure).rejects.toMatchObject({ message: expect.stringMatching(/^webhook answered HTTP 4(29|xx)$/), retryable: true, retryAfterMs: 7_000 });
  });

  it('fails retryably on a 5xx and names no URL', async () => {
    const receiver = await startWebhookReceiver(() => 503);
    closers.push(receiver.close);
    const failure = sendNotification(channel('webhook', `${receiver.url}/secret-path`), plainNotification(), settings(), signal());
    await expect(failure).rejects.toMatchObject({ message: 'webhook answered HTTP 5xx', retryable: true });
  });
});

/** The Subject header of a raw message, with RFC 2047 Q-encoded words decoded. */
function decodeSubject(raw: string): string {
  const headers = raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/m.exec(headers)![1]!;
  return subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
      Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

describe('email', () => {
  it('sends a text and an HTML part through the SMTP server, with the HTML escaped', async () => {
    const messages: { from: string; to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
    const { port } = smtp.server.address() as AddressInfo;
    const mail = settings({ smtpUrl: `smtp://127.0.0.1:${port}`, smtpFrom: 'alerts@example.com' });

    await sendNotification(channel('email', 'ops@example.com, oncall@example.com'), { ...plainNotification(), deliveryId: 'd-42' }, mail, signal());

    expect(messages).toHaveLength(1);
    const [message] = messages;
    // The same delivery retried carries the same Message-ID: mail clients show one message.
    expect(message!.raw).toMatch(/^Message-ID: <d-42@alertform>\r$/m);
    expect(message!.from).toBe('alerts@example.com');
    expect(message!.to).toEqual(['ops@example.com', 'oncall@example.com']);
    expect(decodeSubject(message!.raw)).toBe('[ALERTING] CPU "hot" <web> & co: web.2.cpu = 95.5 (above 90 for 5 minutes)');
    const raw = message!.raw.replace(/=\r\n/g, '');
    expect(raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(raw).toMatch(/Content-Type: text\/plain/);
    expect(raw).toMatch(/Content-Type: text\/html/);
    expect(raw).toContain('web.2.cpu = 95.5');
    // The name's markup is escaped in the HTML part (quoted-printable turns = into =3D).
    expect(raw.replace(/=3D/g, '=')).toContain('CPU &quot;hot&quot; &lt;web&gt; &amp; co');
    expect(raw.replace(/=3D/g, '=')).not.toContain('<h2>[ALERTING] CPU "hot" <web>');
  });

  it('fails clearly without an SMTP server configured', async () => {
    await expect(sendNotification(channel('email', 'ops@example.com'), plainNotification(), settings(), signal())).rejects.toMatchObject({
      message: 'email needs an SMTP server (alertform serve --smtp-url)',
      retryable: false,
    });
  });

  it('escapes every HTML-special character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('links in emails', () => {
  it('shows the graph picture and links the console page, escaped, in both parts', () => {
    const email = buildEmail(plainNotification());
    expect(email.html).toContain('<img src="https://alertform.example/v2/graphs/eyJhIjoiYWxfMTIzIn0.c2ln.png" width="800" height="300"');
    expect(email.html).toContain('<a href="https://alertform.example/alerts/al_123">Open the alert in the console</a>');
    expect(email.text).toContain('Graph: https://alertform.example/v2/graphs/eyJhIjoiYWxfMTIzIn0.c2ln.png');
    expect(email.text).toContain('Console: https://alertform.example/alerts/al_123');
  });

  it('carries neither without links (no --public-url)', () => {
    const { consoleUrl: _console, ...rest } = plainNotification();
    const email = buildEmail({ ...rest, graphUrl: null });
    expect(email.html).not.toContain('<img');
    expect(email.text).not.toMatch(/Graph:|Console:/);
  });
});
