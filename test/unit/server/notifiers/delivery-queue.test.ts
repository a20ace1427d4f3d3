import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createDeliveryQueue } from '../../../../src/server/notifiers/delivery-queue.js';
import { DeliveryError, type DeliveryChannel, type Notification } from '../../../../src/server/notifiers/types.js';
import { channel, plainNotification } from './fixtures.js';

/** A pino logger writing into an array of parsed lines. */
function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('the delivery queue', () => {
  it('retries a retryable failure with the configured backoff, then records success', async () => {
    const delays: number[] = [];
    const outcomes: (string | null)[] = [];
    let calls = 0;
    const queue = createDeliveryQueue({
      send: async () => {
        calls += 1;
        if (calls < 3) throw new DeliveryError('webhook answered HTTP 503', true);
      },
      onOutcome: (_channel, error) => outcomes.push(error),
      retryDelaysMs: [100, 200, 400],
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    queue.enqueue(channel('webhook', 'http://x'), plainNotification());
    await queue.idle();
    expect(calls).toBe(3);
    expect(delays).toEqual([100, 200]);
    expect(outcomes).toEqual(['webhook answered HTTP 503', 'webhook answered HTTP 503', null]);
  });

  it('gives up after the last retry, reporting each failed attempt for the channel', async () => {
    const outcomes: [string, string | null][] = [];
    const queue = createDeliveryQueue({
      send: async () => {
        throw new DeliveryError('slack answered HTTP 500', true);
      },
      onOutcome: (ch, error) => outcomes.push([ch.id, error]),
      retryDelaysMs: [1, 1],
      sleep: async () => undefined,
    });
    queue.enqueue(channel('slack', 'https://hooks.slack.com/services/SECRET'), plainNotification());
    await queue.idle();
    expect(outcomes).toEqual([
      ['ch_slack', 'slack answered HTTP 500'],
      ['ch_slack', 'slack answered HTTP 500'],
      ['ch_slack', 'slack answered HTTP 500'],
    ]);
  });

  it('does not retry a request the service rejected', async () => {
    let calls = 0;
    const queue = createDeliveryQueue({
      send: async () => {
        calls += 1;
        throw new DeliveryError('pagerduty answered HTTP 400', false);
      },
      retryDelaysMs: [1, 1, 1],
      sleep: async () => undefined,
    });
    queue.enqueue(channel('pagerduty', 'key'), plainNotification());
    await queue.idle();
    expect(calls).toBe(1);
  });

  it('times out a hanging attempt so the channel moves on', async () => {
    const outcomes: (string | null)[] = [];
    const queue = createDeliveryQueue({
      send: (_ch, _n, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
      onOutcome: (_ch, error) => outcomes.push(error),
      attemptTimeoutMs: 50,
      retryDelaysMs: [],
    });
    queue.enqueue(channel('webhook', 'http://x'), plainNotification());
    await queue.idle();
    expect(outcomes).toEqual(['webhook delivery timed out after 50 ms']);
  });

  it('never lets a slow channel delay another one', async () => {
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const delivered: string[] = [];
    const queue = createDeliveryQueue({
      send: async (ch) => {
        if (ch.id === 'slow') await slowGate;
        delivered.push(ch.id);
      },
    });
    const slow: DeliveryChannel = { ...channel('webhook', 'http://slow'), id: 'slow' };
    const fast: DeliveryChannel = { ...channel('webhook', 'http://fast'), id: 'fast' };
    for (let i = 0; i < 3; i += 1) queue.enqueue(slow, plainNotification());
    queue.enqueue(fast, plainNotification());
    // Wait until the fast channel has its delivery while the slow one is still stuck on its first.
    for (let i = 0; i < 100 && !delivered.includes('fast'); i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(delivered).toEqual(['fast']);
    releaseSlow();
    await queue.idle();
    expect(delivered).toEqual(['fast', 'slow', 'slow', 'slow']);
  });

  it('delivers one channel\'s notifications in order, one at a time', async () => {
    const seen: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const queue = createDeliveryQueue({
      send: async (_ch, notification: Notification) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(notification.event);
        inFlight -= 1;
      },
    });
    const pd = channel('pagerduty', 'key', true);
    queue.enqueue(pd, plainNotification('alerting'));
    queue.enqueue(pd, plainNotification('recovered'));
    queue.enqueue(pd, plainNotification('alerting'));
    await queue.idle();
    expect(seen).toEqual(['alerting', 'recovered', 'alerting']);
    expect(maxInFlight).toBe(1);
  });

  it('drops the oldest deliveries of a channel whose queue is full', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sent: number[] = [];
    const { logger, lines } = captureLogger();
    const queue = createDeliveryQueue({
      send: async (_ch, notification) => {
        await gate;
        sent.push(notification.time);
      },
      maxQueuedPerChannel: 2,
      logger,
    });
    const hook = channel('webhook', 'http://x');
    for (let time = 1; time <= 5; time += 1) queue.enqueue(hook, { ...plainNotification(), time });
    release();
    await queue.idle();
    expect(sent).toEqual([1, 4, 5]);
    expect(lines.filter((line) => line.msg === 'notification dropped: channel queue full')).toHaveLength(2);
  });

  it('logs deliveries and failures without destinations or keys', async () => {
    const { logger, lines } = captureLogger();
    let calls = 0;
    const queue = createDeliveryQueue({
      send: async () => {
        calls += 1;
        if (calls === 1) throw new DeliveryError('webhook answered HTTP 502', true);
      },
      logger,
      retryDelaysMs: [1],
      sleep: async () => undefined,
    });
    queue.enqueue(channel('webhook', 'https://hooks.example/secret-token-123'), plainNotification());
    await queue.idle();
    expect(lines.map((line) => line.msg)).toEqual(['notification delivery failed', 'notification delivered']);
    expect(lines[0]).toMatchObject({ channel: 'ch_webhook', type: 'webhook', alert: 'al_123', event: 'alerting', attempt: 1, error: 'webhook answered HTTP 502', willRetry: true });
    expect(JSON.stringify(lines)).not.toContain('secret-token-123');
  });

  it('counts pending deliveries and those that gave up by channel type (for /metrics)', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const queue = createDeliveryQueue({
      send: async (target) => {
        if (target.type === 'slack') await held;
        else throw new DeliveryError('webhook answered HTTP 400', false);
      },
      sleep: async () => undefined,
    });
    queue.enqueue(channel('slack', 'https://hooks.slack.com/x'), plainNotification());
    queue.enqueue(channel('slack', 'https://hooks.slack.com/x'), plainNotification());
    queue.enqueue(channel('webhook', 'http://x'), plainNotification());
    expect(queue.countsByChannelType().pending).toEqual({ slack: 2, webhook: 1 });
    release();
    await queue.idle();
    expect(queue.countsByChannelType()).toEqual({ pending: { slack: 0, webhook: 0 }, failed: { webhook: 1 } });
  });
});
