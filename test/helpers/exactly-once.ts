import { expect } from 'vitest';
import type { ReceivedRequest } from './webhook-receiver.js';
import { callServe, type ServeProcess } from './server-process.js';

/** The webhook body alertform sends, as far as these checks read it. */
interface WebhookBody {
  id: string;
  metric: string;
  status: string;
}

/** Distinct delivery ids received per transition (`metric status`); a resend after a crash carries the same id. */
export function idsByTransition(received: ReceivedRequest[]): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const request of received) {
    const body = request.body as WebhookBody;
    const transition = `${body.metric} ${body.status}`;
    if (!ids.has(transition)) ids.set(transition, new Set());
    ids.get(transition)!.add(body.id);
  }
  return ids;
}

/** How many distinct transitions with `status` were received. */
export function countTransitions(received: ReceivedRequest[], status: string): number {
  return [...idsByTransition(received).keys()].filter((transition) => transition.endsWith(` ${status}`)).length;
}

/**
 * Every metric's transitions arrived exactly once: by (alert, event) one delivery id each, no id shared by two
 * transitions, the idempotency header equal to the id, and, as a receiver that drops repeated ids sees them, in
 * the order `events` for each metric. Answers how many requests were resends of an id already received.
 */
export function expectExactlyOnce(received: ReceivedRequest[], metrics: string[], events: string[]): number {
  const ids = idsByTransition(received);
  expect(ids.size).toBe(metrics.length * events.length);
  for (const [transition, set] of ids) expect([transition, set.size]).toEqual([transition, 1]);
  expect(new Set([...ids.values()].map((set) => [...set][0]!)).size).toBe(ids.size);
  const firstSeen = new Map<string, WebhookBody>();
  for (const request of received) {
    const body = request.body as WebhookBody;
    expect(request.headers['idempotency-key']).toBe(body.id);
    if (!firstSeen.has(body.id)) firstSeen.set(body.id, body);
  }
  const byMetric = new Map<string, string[]>();
  for (const { metric, status } of firstSeen.values()) byMetric.set(metric, [...(byMetric.get(metric) ?? []), status]);
  expect(new Set(byMetric.keys())).toEqual(new Set(metrics));
  for (const [metric, statuses] of byMetric) expect([metric, statuses]).toEqual([metric, events]);
  return received.length - firstSeen.size;
}

/** One API write of a write load and what the server answered (0: no answer at all). */
export interface LoadWrite {
  description: string;
  status: number;
  at: number;
  code?: string;
}

/**
 * API writes while something fails underneath: `concurrency` loops, round robin over `servers`, each creating a
 * webhook channel with a description of its own, until stop(). Every answer is recorded, so a test can tell the
 * acknowledged writes (201) from the refused ones and check that no answer was a 500.
 */
export function startWriteLoad(servers: ServeProcess[], destination: string, concurrency = 3) {
  const writes: LoadWrite[] = [];
  let stopped = false;
  let next = 0;
  const loop = async () => {
    while (!stopped) {
      const n = next++;
      const description = `load-${n}`;
      const server = servers[n % servers.length]!;
      try {
        const answer = await callServe(server, 'POST', '/v2/notifications/', { type: 'webhook', description, destination });
        writes.push({ description, status: answer.status, at: Date.now(), code: answer.body?.error?.code });
        // A refused write is retried by a client after Retry-After; this load just moves on, more slowly.
        if (answer.status !== 201) await new Promise((resolve) => setTimeout(resolve, 50));
      } catch {
        writes.push({ description, status: 0, at: Date.now() });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    writes,
    acknowledged: () => writes.filter((write) => write.status === 201).map((write) => write.description),
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
