import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildEmail, closeEmailTransports, escapeHtml } from '../../../../src/server/notifiers/email.js';
import { sendNotification } from '../../../../src/server/notifiers/send.js';
import { startWebhookReceiver } from '../../../helpers/webhook-receiver.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { webhookEvent } from '../../../../src/server/notifiers/webhook.js';
import { signingSecrets } from '../../../../src/server/notifiers/webhook-signing.js';
import type { NotificationEvent } from '../../../../src/evaluation/transitions.js';
import { VERSION } from '../../../../src/version.js';
import { TIME, channel, compositeNotification, plainNotification, settings } from './fixtures.js';

const webhookSchema = JSON.parse(readFileSync(new URL('../../../../schemas/webhook-payload.schema.json', import.meta.url), 'utf8')) as { properties: Record<string, unknown> };

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
      alert_id: 'al_123',
      event: 'alerting',
      started_at: TIME - 300,
      ended_at: null,
      thresholds: { above: 90, below: null },
      triggered_metrics: [{ metric: 'web.2.cpu', value: 95.5 }],
    });
    expect(request.headers['user-agent']).toBe(`alertform/${VERSION}`);
  });

  it('pairs a recovery with its alert: the same alert_id and started_at, ended_at set', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    await sendNotification(channel('webhook', receiver.url), { ...plainNotification('alerting'), deliveryId: 'd-1' }, settings(), signal());
    const recovery = { ...plainNotification('recovered'), time: TIME + 600, deliveryId: 'd-2' };
    await sendNotification(channel('webhook', receiver.url), recovery, settings(), signal());
    const [alerting, recovered] = [(await receiver.next()).body, (await receiver.next()).body] as Record<string, unknown>[];
    expect(recovered).toMatchObject({ alert_id: alerting!.alert_id, event: 'recovered', started_at: alerting!.started_at, ended_at: TIME + 600 });
    expect(recovered!.id).not.toBe(alerting!.id);
  });

  it('names each kind of notification as the schema does', () => {
    const events: [NotificationEvent, string][] = [
      ['alerting', 'alerting'],
      ['reminder', 'reminder'],
      ['escalated', 'escalation'],
      ['recovered', 'recovered'],
      ['acknowledged', 'acknowledged'],
      ['query_failed', 'query_failed'],
      ['query_recovered', 'query_recovered'],
      ['flapping', 'flapping'],
      ['throttled_summary', 'throttled'],
    ];
    const schemaEvents = (webhookSchema.properties.event as { enum: string[] }).enum;
    for (const [kind, event] of events) {
      expect(webhookEvent(kind)).toBe(event);
      expect(schemaEvents).toContain(event);
    }
    expect(schemaEvents).toEqual(expect.arrayContaining(['no_data', 'grouped']));
  });

  it('signs the exact body with the channel secret: the documented check passes, a changed byte fails', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const secrets = signingSecrets({
      console: { getServerSecret: async () => 'c2VydmVyLWtleS1mb3ItdGVzdHMtMzItYnl0ZXMtbG9uZw' },
      channels: { getSigningRotation: async () => ({ generation: 0, previous: null }) },
    });
    await sendNotification(channel('webhook', receiver.url), compositeNotification(), settings({ signingSecrets: secrets }), signal());
    const request = await receiver.next();
    const secret = (await secrets('ch_webhook')).current;
    // The verification in docs/server.md, as a receiver writes it.
    const verify = (body: string, header: string) => {
      const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
    };
    const header = request.headers['x-alertform-signature'] as string;
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify(request.raw, header)).toBe(true);
    expect(verify(request.raw.replace('95.5', '95.6'), header)).toBe(false);
    // Another channel has another secret, and the secret never travels in the request.
    expect((await secrets('ch_other')).current).not.toBe(secret);
    expect(JSON.stringify(request.headers) + request.raw).not.toContain(secret);
  });

  it('sends bodies the published JSON Schema accepts, plain, composite, templated and tests alike', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
    const validate = ajv.compile(webhookSchema);
    const notifications = [
      { ...plainNotification(), deliveryId: 'd-1' },
      compositeNotification(),
      plainNotification('recovered'),
      { ...plainNotification('escalated'), escalation: { step: 1, of: 2, after_minutes: 30 } },
      { ...plainNotification('throttled_summary'), throttled: { channel: 'ops', max_notifications: 1, window_minutes: 10, window_start: TIME, window_end: TIME + 600, held_count: 0, held: [] } },
      { ...plainNotification('acknowledged'), acknowledgement: { by: 'ann', note: null, at: TIME, until: null } },
      { ...plainNotification('query_failed'), failure: 'boom', startedAt: TIME },
    ];
    for (const notification of notifications) {
      await sendNotification({ ...channel('webhook', receiver.url), template: { title: 't', body: 'b' } as never }, notification, settings(), signal());
      const { body } = await receiver.next();
      expect({ event: notification.event, valid: validate(body), errors: validate.errors }).toEqual({ event: notification.event, valid: true, errors: null });
      // Every field sent is published: a new one must be added to the schema too.
      expect(Object.keys(body as object).filter((key) => !(key in webhookSchema.properties))).toEqual([]);
    }
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
    // The pooled connection first: the SMTP server's close waits for its clients to leave.
    closers.push(async () => closeEmailTransports());
    const { port } = smtp.server.address() as AddressInfo;
    const mail = settings({ smtpUrl: `smtp://127.0.0.1:${port}`, smtpFrom: 'alerts@example.com' });

    await sendNotification(channel('email', 'ops@example.com, oncall@example.com'), { ...plainNotification(), deliveryId: 'd-42' }, mail, signal());

    expect(messages).toHaveLength(1);
    const [message] = messages;
    // The same delivery retried carries the same Message-ID: mail clients show one message.
    expect(message!.raw).toMatch(/^Message-ID: <d-42@alertform>\r$/m);
    // Machine-made mail: vacation responders and ticket systems leave it unanswered (RFC 3834).
    expect(message!.raw).toMatch(/^Auto-Submitted: auto-generated\r$/m);
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
