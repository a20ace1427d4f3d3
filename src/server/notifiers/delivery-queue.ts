import type { Logger } from 'pino';
import { DeliveryError, type DeliveryChannel, type Notification } from './types.js';

/** Settings of a DeliveryQueue. */
export interface DeliveryQueueOptions {
  /** Sends one notification once; throws on failure (DeliveryError says whether a retry may help). */
  send: (channel: DeliveryChannel, notification: Notification, signal: AbortSignal) => Promise<void>;
  /**
   * Told after each attempt that failed (with its safe error message) and after a delivery that worked (null),
   * so a channel in trouble shows it while its retries are still running.
   */
  onOutcome?: (channel: DeliveryChannel, error: string | null) => void;
  logger?: Logger;
  /** Waits before each retry, in ms; its length is the number of retries. Default [1 000, 5 000, 30 000]. */
  retryDelaysMs?: number[];
  /** Per attempt. Default 10 000 ms. */
  attemptTimeoutMs?: number;
  /** Deliveries in flight at once over all channels. Default 16. */
  concurrency?: number;
  /** Deliveries waiting per channel; beyond it the oldest are dropped (and logged). Default 1 000. */
  maxQueuedPerChannel?: number;
  /** The sleep between retries (a fake in tests). */
  sleep?: (ms: number) => Promise<void>;
}

/** Sends notifications in the background, never blocking the caller. */
export interface DeliveryQueue {
  /** Queues a delivery and returns at once. */
  enqueue(channel: DeliveryChannel, notification: Notification): void;
  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void>;
  /** Deliveries queued or in flight. */
  pending(): number;
  /** Deliveries queued or in flight, and deliveries that gave up since the queue started, by channel type (/metrics). */
  countsByChannelType(): { pending: Record<string, number>; failed: Record<string, number> };
}

interface Job {
  channel: DeliveryChannel;
  notification: Notification;
}

/**
 * A delivery queue per channel, drained one delivery at a time so that a channel receives an alert's
 * notifications in order (a PagerDuty resolve never overtakes its trigger), with a global cap on deliveries in
 * flight. A slow or failing channel only holds its own queue: each attempt has a timeout, retries back off, and
 * other channels keep going. Logs name the channel id and type, never its destination.
 */
export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  const retryDelays = options.retryDelaysMs ?? [1_000, 5_000, 30_000];
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const concurrency = options.concurrency ?? 16;
  const maxQueued = options.maxQueuedPerChannel ?? 1_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  const queues = new Map<string, Job[]>();
  const ready: string[] = [];
  let inFlight = 0;
  const inFlightByType = new Map<string, number>();
  const failedByType = new Map<string, number>();
  const bump = (counts: Map<string, number>, type: string, by: number) => counts.set(type, (counts.get(type) ?? 0) + by);
  let idleWaiters: (() => void)[] = [];

  const pending = () => {
    let count = inFlight;
    for (const queue of queues.values()) count += queue.length;
    return count;
  };

  const checkIdle = () => {
    if (pending() === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  const attempt = async (job: Job): Promise<void> => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Reject first so the race reports the timeout, not the abort error it causes.
        reject(new DeliveryError(`${job.channel.type} delivery timed out after ${attemptTimeoutMs} ms`, true));
        controller.abort();
      }, attemptTimeoutMs);
    });
    try {
      await Promise.race([options.send(job.channel, job.notification, controller.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const deliver = async (job: Job): Promise<void> => {
    const log = { channel: job.channel.id, type: job.channel.type, alert: job.notification.alert.id, event: job.notification.event };
    for (let tries = 0; ; tries += 1) {
      try {
        await attempt(job);
        options.logger?.info({ ...log, attempt: tries + 1 }, 'notification delivered');
        options.onOutcome?.(job.channel, null);
        return;
      } catch (error) {
        const message = error instanceof DeliveryError ? error.message : `${job.channel.type} delivery failed`;
        const retryable = !(error instanceof DeliveryError) || error.retryable;
        const last = !retryable || tries >= retryDelays.length;
        options.logger?.warn({ ...log, attempt: tries + 1, error: message, willRetry: !last }, 'notification delivery failed');
        options.onOutcome?.(job.channel, message);
        if (last) {
          bump(failedByType, job.channel.type, 1);
          return;
        }
        await sleep(retryDelays[tries]!);
      }
    }
  };

  const pump = () => {
    while (inFlight < concurrency && ready.length > 0) {
      const channelId = ready.shift()!;
      const queue = queues.get(channelId)!;
      const job = queue.shift()!;
      inFlight += 1;
      bump(inFlightByType, job.channel.type, 1);
      void deliver(job)
        .catch(() => undefined)
        .finally(() => {
          inFlight -= 1;
          bump(inFlightByType, job.channel.type, -1);
          // The channel's next job becomes ready only now: one delivery per channel at a time.
          if (queue.length > 0) ready.push(channelId);
          else queues.delete(channelId);
          pump();
          checkIdle();
        });
    }
  };

  return {
    enqueue(channel, notification) {
      let queue = queues.get(channel.id);
      const busy = queue !== undefined;
      if (!queue) queues.set(channel.id, (queue = []));
      if (queue.length >= maxQueued) {
        const dropped = queue.shift()!;
        options.logger?.warn(
          { channel: channel.id, type: channel.type, alert: dropped.notification.alert.id, event: dropped.notification.event },
          'notification dropped: channel queue full',
        );
      }
      queue.push({ channel, notification });
      if (!busy) ready.push(channel.id);
      pump();
    },
    idle() {
      if (pending() === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    pending,
    countsByChannelType() {
      const pendingByType = new Map(inFlightByType);
      for (const queue of queues.values()) for (const job of queue) bump(pendingByType, job.channel.type, 1);
      return { pending: Object.fromEntries(pendingByType), failed: Object.fromEntries(failedByType) };
    },
  };
}
