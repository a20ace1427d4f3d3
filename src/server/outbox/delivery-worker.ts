import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ClaimedDelivery, DeliveryOutcome, OutboxStore } from '../store/outbox.js';
import { type DeliveryChannel, type Notification } from '../../notifications/types.js';
import { DeliveryError } from '../notifiers/delivery.js';
import { DEFAULT_RETRY_POLICY, decideRetry, type RetryPolicy } from './backoff.js';
import { FairShare, defaultFairShare, type FairShareLimits } from './fair-share.js';
import { createOutcomeRecorder } from './outcome-recorder.js';

/** How a delivery worker runs. */
export interface DeliveryWorkerOptions {
  /** closeThrottleWindows is optional (a store without throttles, test doubles). */
  store: Pick<OutboxStore, 'claimDueDeliveries' | 'finishDeliveries' | 'pruneDeliveries'> & Partial<Pick<OutboxStore, 'closeThrottleWindows' | 'closeDeliveryGroups'>>;
  /** Sends one notification once; throws on failure (a DeliveryError says whether a retry may help and when). */
  send: (channel: DeliveryChannel, notification: Notification, signal: AbortSignal) => Promise<void>;
  retry?: Partial<RetryPolicy>;
  /** Per attempt, ms. Default 10 000. */
  attemptTimeoutMs?: number;
  /** Deliveries in flight at once. Default 16. */
  concurrency?: number;
  /** Shares and caps of slots per account and destination. Default: defaultFairShare(concurrency). */
  fairShare?: Partial<FairShareLimits>;
  /** How often to look for due rows when nobody wakes the worker, ms. Default 1 000. */
  pollMs?: number;
  logger?: Logger;
  /** The clock, epoch ms (tests). */
  now?: () => number;
  /** Told after an attempt's outcome is recorded in the outbox (/metrics counts them by channel type). */
  onFinished?: (channelType: string, state: DeliveryOutcome['state']) => void;
}

/** A running delivery worker. */
export interface DeliveryWorker {
  /** Its id in claims (random per process: a restarted process never owns its predecessor's claims). */
  readonly id: string;
  /** Looks for due rows now (the evaluator calls it after writing deliveries). */
  wake(): void;
  /** Resolves once nothing is in flight and the last look found nothing due. */
  idle(): Promise<void>;
  /** Stops claiming; waits for attempts in flight up to `graceMs` (an unfinished one is retried after its lease). */
  stop(graceMs?: number): Promise<void>;
}

/** Finished rows are kept for a while (for the listing), then pruned. */
const KEEP_DELIVERED_MS = 24 * 3_600_000;
const KEEP_DEAD_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Sends the outbox: claims due rows (a lease of twice the attempt timeout, so a live worker's claim never expires
 * under it while a dead worker's rows come back soon), sends each with a timeout, then marks it delivered,
 * reschedules it (backoff with jitter, or the service's Retry-After) or dead-letters it. Rows are written before
 * anything is sent, so a crash at any point leaves them pending: delivery is at least once, and the stable
 * delivery id (dedup keys, Idempotency-Key, Message-ID) lets receivers make it exactly once. Logs name the alert and
 * the channel (id and name) and the channel's type, never its destination.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const id = randomUUID();
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const leaseMs = attemptTimeoutMs * 2 + 1_000;
  const concurrency = options.concurrency ?? 16;
  const shares = new FairShare({ ...defaultFairShare(concurrency), ...options.fairShare });
  const pollMs = options.pollMs ?? 1_000;
  const now = options.now ?? Date.now;
  const logger = options.logger;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let claiming = false;
  let again = false;
  let foundNothing = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPrune = 0;
  let idleWaiters: (() => void)[] = [];

  const checkIdle = () => {
    if (inFlight.size > 0 || claiming || !foundNothing) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const schedulePoll = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, pollMs).unref();
  };

  const attempt = async (delivery: ClaimedDelivery, notification: Notification): Promise<void> => {
    const controller = new AbortController();
    let timeout: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => {
        // Reject first so the race reports the timeout, not the abort error it causes.
        reject(new DeliveryError(`${delivery.channel.type} delivery timed out after ${attemptTimeoutMs} ms`, true));
        controller.abort();
      }, attemptTimeoutMs);
    });
    try {
      await Promise.race([options.send(delivery.channel, notification, controller.signal), expired]);
    } finally {
      clearTimeout(timeout);
    }
  };

  const record = createOutcomeRecorder(options.store);
  const recordOutcome = (deliveryId: string, outcome: DeliveryOutcome) => record({ id: deliveryId, worker: id, outcome });

  const deliver = async (delivery: ClaimedDelivery): Promise<void> => {
    const notification = { ...(delivery.payload as Notification), deliveryId: delivery.id };
    // Names beside ids: a person reading the log (or searching it in Loki) knows the alert and the channel by name.
    const alertName = (notification.alert as Partial<Notification['alert']> | undefined)?.name;
    const log = {
      delivery: delivery.id,
      channel: delivery.channel.id,
      channelName: delivery.channel.description,
      type: delivery.channel.type,
      alert: delivery.alertId,
      ...(typeof alertName === 'string' ? { alertName } : {}),
      event: notification.event,
    };
    const attemptNumber = delivery.attempts + 1;
    try {
      await attempt(delivery, notification);
    } catch (error) {
      const known = error instanceof DeliveryError;
      const message = known ? error.message : `${delivery.channel.type} delivery failed`;
      const at = now();
      const decision = decideRetry({
        createdAt: delivery.createdAt,
        failures: attemptNumber,
        retryable: !known || error.retryable,
        retryAfterMs: known ? error.retryAfterMs : null,
        now: at,
        policy,
      });
      await recordOutcome(
        delivery.id,
        decision.kind === 'dead' ? { state: 'dead', at, error: message } : { state: 'pending', at, nextAttemptAt: decision.at, error: message },
      );
      options.onFinished?.(delivery.channel.type, decision.kind === 'dead' ? 'dead' : 'pending');
      const next = decision.kind === 'retry' ? { nextAttemptInMs: decision.at - at } : { deadLettered: true };
      logger?.[decision.kind === 'dead' ? 'error' : 'warn']({ ...log, attempt: attemptNumber, error: message, ...next }, 'notification delivery failed');
      return;
    }
    await recordOutcome(delivery.id, { state: 'delivered', at: now() });
    options.onFinished?.(delivery.channel.type, 'delivered');
    logger?.info({ ...log, attempt: attemptNumber }, 'notification delivered');
  };

  // Attempts that end together trigger one claim, not one each.
  let tickQueued = false;
  const queueTick = () => {
    if (tickQueued) return;
    tickQueued = true;
    setImmediate(() => {
      tickQueued = false;
      void tick();
    });
  };

  async function tick(): Promise<void> {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      // Throttle windows that ended get their summary first: it is due at once, and this claim may take it.
      await options.store.closeThrottleWindows?.(now());
      // So do the groups whose wait or interval ended: each group's members become one message.
      await options.store.closeDeliveryGroups?.(now());
      do {
        again = false;
        const room = concurrency - inFlight.size;
        if (room <= 0) break;
        const claimed = await options.store.claimDueDeliveries({ worker: id, now: now(), leaseMs, limit: room, admit: shares.admitter(), skip: shares.saturated() });
        foundNothing = claimed.length === 0;
        for (const delivery of claimed) {
          shares.add(delivery);
          const running: Promise<void> = deliver(delivery)
            .catch((error: Error) => logger?.error({ delivery: delivery.id, error: error.message }, 'could not record a delivery'))
            .finally(() => {
              inFlight.delete(running);
              shares.remove(delivery);
              // The next row of the same channel and alert may be due now.
              queueTick();
            });
          inFlight.add(running);
        }
        if (claimed.length === room) again = true;
      } while (again && !stopped);
      if (now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = now();
        await options.store.pruneDeliveries(lastPrune - KEEP_DELIVERED_MS, lastPrune - KEEP_DEAD_MS);
      }
    } catch (error) {
      logger?.error({ error: (error as Error).message }, 'could not read the outbox');
    } finally {
      claiming = false;
      schedulePoll();
      checkIdle();
    }
  }

  void tick();

  return {
    id,
    wake() {
      foundNothing = false;
      void tick();
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      });
    },
    async stop(graceMs = 5_000) {
      stopped = true;
      clearTimeout(timer);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(grace);
    },
  };
}
