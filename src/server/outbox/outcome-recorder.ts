import type { FinishedDelivery, OutboxStore } from '../store/outbox.js';

/**
 * Records attempts' outcomes in batches: the outcomes of attempts that end in the same turn of the event loop (or
 * while the previous batch is being written) go into one `finishDeliveries` transaction. One commit, so one fsync,
 * per batch instead of per delivery: that is what lets a backlog drain at the speed of the services. The promise
 * of each outcome settles when its batch is written (or fails).
 */
export function createOutcomeRecorder(store: Pick<OutboxStore, 'finishDeliveries'>): (finished: FinishedDelivery) => Promise<void> {
  let waiting: { finished: FinishedDelivery; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let writing = false;

  const writeBatches = async () => {
    writing = true;
    try {
      while (waiting.length > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = waiting;
        waiting = [];
        try {
          await store.finishDeliveries(batch.map((entry) => entry.finished));
          for (const entry of batch) entry.resolve();
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  };

  return (finished) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ finished, resolve, reject });
      if (!writing) void writeBatches();
    });
}
