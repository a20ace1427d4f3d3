import nock from 'nock';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeEmailTransports } from '../../../../src/server/notifiers/email.js';
import { sendNotification } from '../../../../src/server/notifiers/send.js';
import type { DeliveryChannel, Notification } from '../../../../src/notifications/types.js';
import { startWebhookReceiver } from '../../../helpers/webhook-receiver.js';
import { TIME, channel, plainNotification, settings } from './fixtures.js';

/** An alert name with everything that could break a format: markup, mrkdwn, an ampersand and quotes. */
const NASTY = '<script>x</script> *CPU* & "hot"';
const TEMPLATE = {
  title: '{{event}}: {{name}} at {{value}}',
  body: '{{name}} is {{criteria}}\n{{#triggered}}- {{metric}} = {{value}}\n{{/triggered}}{{#links.console}}Console: {{links.console}}{{/links.console}}',
};

function nasty(): Notification {
  const base = plainNotification();
  return { ...base, alert: { ...base.alert, name: NASTY }, ackUrl: 'https://alertform.example/ack/t0k' };
}

function templated(type: DeliveryChannel['type'], destination: string, template: DeliveryChannel['template'] = TEMPLATE): DeliveryChannel {
  return { ...channel(type, destination, true), template };
}

const signal = () => AbortSignal.timeout(5_000);
const closers: (() => Promise<void>)[] = [];
beforeAll(() => {
  // Third parties are nocked; the real webhook receiver listens on 127.0.0.1.
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => {
  nock.enableNetConnect();
  closeEmailTransports();
});

const PLAIN_BODY = `${NASTY} is above 90 for 5 minutes\n- web.2.cpu = 95.5\nConsole: https://alertform.example/alerts/al_123`;

describe('templated messages', () => {
  it('slack gets the title as text and the body as the attachment text, values escaped for mrkdwn', async () => {
    let body: { text?: string; attachments?: { text?: string }[] } = {};
    const scope = nock('https://hooks.slack.com')
      .post('/services/T/B/x', (received) => {
        body = received;
        return true;
      })
      .reply(200, 'ok');
    await sendNotification(templated('slack', 'https://hooks.slack.com/services/T/B/x'), nasty(), settings(), signal());
    expect(scope.isDone()).toBe(true);
    expect(body.text).toBe('alerting: &lt;script&gt;x&lt;/script&gt; *CPU* &amp; "hot" at 95.5');
    expect(body.attachments![0]!.text).toBe(
      '&lt;script&gt;x&lt;/script&gt; *CPU* &amp; "hot" is above 90 for 5 minutes\n- web.2.cpu = 95.5\nConsole: https://alertform.example/alerts/al_123',
    );
  });

  it('pagerduty gets the title as summary, the body in custom_details, and the alert\'s severity', async () => {
    let payload: Record<string, unknown> = {};
    const scope = nock('https://events.pagerduty.com')
      .post('/v2/enqueue', (received) => {
        payload = received.payload;
        return true;
      })
      .reply(202, {});
    const notification = nasty();
    notification.alert.pagerduty_severity = 'warning';
    await sendNotification(templated('pagerduty', 'pd-key'), notification, settings(), signal());
    expect(scope.isDone()).toBe(true);
    expect(payload).toMatchObject({
      summary: `alerting: ${NASTY} at 95.5`,
      severity: 'warning',
      custom_details: { body: PLAIN_BODY, criteria: 'above 90 for 5 minutes' },
    });
  });

  it('pagerduty cuts a summary over 1,024 characters with an ellipsis', async () => {
    let summary = '';
    nock('https://events.pagerduty.com')
      .post('/v2/enqueue', (received) => {
        summary = received.payload.summary;
        return true;
      })
      .reply(202, {});
    await sendNotification(templated('pagerduty', 'k', { title: `${'x'.repeat(1100)} {{name}}` }), nasty(), settings(), signal());
    expect(summary).toBe(`${'x'.repeat(1023)}…`);
  });

  it('opsgenie gets message (cut to 130) and description from the template, and the alert\'s priority', async () => {
    let body: Record<string, unknown> = {};
    const scope = nock('https://api.opsgenie.com')
      .post('/v2/alerts', (received) => {
        body = received;
        return true;
      })
      .matchHeader('authorization', 'GenieKey og-key')
      .reply(202, {});
    const notification = nasty();
    notification.alert.opsgenie_priority = 'P4';
    const long = { title: `{{name}} ${'y'.repeat(200)}`, body: TEMPLATE.body };
    await sendNotification(templated('opsgenie', 'og-key', long), notification, settings(), signal());
    expect(scope.isDone()).toBe(true);
    expect(body.message).toBe(`${NASTY} ${'y'.repeat(129 - NASTY.length - 1)}…`);
    expect((body.message as string).length).toBe(130);
    expect(body.description).toBe(PLAIN_BODY);
    expect(body.priority).toBe('P4');
  });

  it('opsgenie and pagerduty keep their defaults (P1, critical) when the alert sets none', async () => {
    let priority = '';
    let severity = '';
    nock('https://api.opsgenie.com')
      .post('/v2/alerts', (received) => ((priority = received.priority), true))
      .reply(202, {});
    nock('https://events.pagerduty.com')
      .post('/v2/enqueue', (received) => ((severity = received.payload.severity), true))
      .reply(202, {});
    await sendNotification(channel('opsgenie', 'k'), plainNotification(), settings(), signal());
    await sendNotification(channel('pagerduty', 'k'), plainNotification(), settings(), signal());
    expect({ priority, severity }).toEqual({ priority: 'P1', severity: 'critical' });
  });

  it('victorops gets the title as display name and the body as state message', async () => {
    let body: Record<string, unknown> = {};
    const scope = nock('https://alert.victorops.com')
      .post('/integrations/generic/20131114/alert/api-key/routing', (received) => ((body = received), true))
      .reply(200, { result: 'success' });
    await sendNotification(
      templated('victorops', 'https://alert.victorops.com/integrations/generic/20131114/alert/api-key/routing'),
      nasty(),
      settings(),
      signal(),
    );
    expect(scope.isDone()).toBe(true);
    expect(body).toEqual({
      message_type: 'CRITICAL',
      entity_id: 'alertform-al_123',
      entity_display_name: `alerting: ${NASTY} at 95.5`,
      state_message: PLAIN_BODY,
      state_start_time: 1_700_000_000,
      monitoring_tool: 'alertform',
    });
  });

  it('a webhook receiver gets the usual body plus the rendered title and body, exactly', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    await sendNotification(templated('webhook', receiver.url, { title: '{{#links.ack}}Ack: {{links.ack}}{{/links.ack}}' }), nasty(), settings(), signal());
    const { body } = await receiver.next();
    expect(body).toEqual({
      name: NASTY,
      criteria: 'above 90 for 5 minutes',
      graph: 'https://alertform.example/v2/graphs/eyJhIjoiYWxfMTIzIn0.c2ln.png',
      value: 95.5,
      metric: 'web.2.cpu',
      status: 'alerting',
      backoff_minutes: 30,
      info: 'Check the runbook: https://runbooks.example/cpu',
      console_url: 'https://alertform.example/alerts/al_123',
      ack_url: 'https://alertform.example/ack/t0k',
      alert_id: 'al_123',
      event: 'alerting',
      started_at: TIME - 300,
      ended_at: null,
      thresholds: { above: 90, below: null },
      triggered_metrics: [{ metric: 'web.2.cpu', value: 95.5 }],
      title: 'Ack: https://alertform.example/ack/t0k',
      // The body was not templated: the default text.
      body: expect.stringContaining(`[ALERTING] ${NASTY}: web.2.cpu = 95.5`),
    });
  });

  it('email renders the subject and text part plain and the HTML part escaped, through a real SMTP server', async () => {
    const raws: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          raws.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
    // The pooled connection first: the SMTP server's close waits for its clients to leave.
    closers.push(async () => closeEmailTransports());
    const { port } = smtp.server.address() as AddressInfo;
    await sendNotification(templated('email', 'ops@example.com'), nasty(), settings({ smtpUrl: `smtp://127.0.0.1:${port}` }), signal());
    expect(raws).toHaveLength(1);
    const parts = mimeParts(raws[0]!);
    expect(decodeSubject(raws[0]!)).toBe(`alerting: ${NASTY} at 95.5`);
    expect(parts['text/plain']).toBe(PLAIN_BODY);
    expect(parts['text/html']).toBe(
      '<p>&lt;script&gt;x&lt;/script&gt; *CPU* &amp; &quot;hot&quot; is above 90 for 5 minutes<br>\n- web.2.cpu = 95.5<br>\nConsole: https://alertform.example/alerts/al_123</p>',
    );
  });
});

/** The decoded text of each part of a multipart/alternative message, by content type. */
function mimeParts(raw: string): Record<string, string> {
  const boundary = /boundary="?([^"\r\n;]+)"?/.exec(raw)![1]!;
  const parts: Record<string, string> = {};
  for (const part of raw.split(`--${boundary}`).slice(1, -1)) {
    const [head, ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const type = /Content-Type: ([^;\r\n]+)/i.exec(head!)![1]!;
    let body = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    if (/Content-Transfer-Encoding: quoted-printable/i.test(head!)) {
      body = Buffer.from(
        body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    } else if (/Content-Transfer-Encoding: base64/i.test(head!)) {
      body = Buffer.from(body, 'base64').toString('utf8');
    }
    parts[type] = body.replace(/\r\n/g, '\n');
  }
  return parts;
}

function decodeSubject(raw: string): string {
  const headers = raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/m.exec(headers)![1]!;
  return subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
      Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}
