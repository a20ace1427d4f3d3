import { describe, expect, it, vi } from 'vitest';
import { cycleIsHealthy, maskPingUrl, startHeartbeat } from '../../../src/server/evaluator/heartbeat.js';
import { parseDestinationPolicy } from '../../../src/server/net/destination-policy.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

describe('cycleIsHealthy', () => {
  it('is healthy when at least one query answered, or when there was none to ask', () => {
    expect(cycleIsHealthy({ queries: 0, failedQueries: 0 })).toBe(true);
    expect(cycleIsHealthy({ queries: 3, failedQueries: 0 })).toBe(true);
    expect(cycleIsHealthy({ queries: 3, failedQueries: 2 })).toBe(true);
  });

  it('is unhealthy when every query failed', () => {
    expect(cycleIsHealthy({ queries: 1, failedQueries: 1 })).toBe(false);
    expect(cycleIsHealthy({ queries: 40, failedQueries: 40 })).toBe(false);
  });
});

describe('maskPingUrl', () => {
  it('keeps the origin only: no path, query or credentials', () => {
    expect(maskPingUrl('https://user:pw@hc-ping.com/0a1b2c3d-uuid?rid=9')).toBe('https://hc-ping.com/…');
    expect(maskPingUrl('https://nosnch.in:8443/c2354d53d2')).toBe('https://nosnch.in:8443/…');
  });
});

describe('startHeartbeat', () => {
  it('keeps one ping in flight at most: cycles ending meanwhile skip theirs, without waiting for it', async () => {
    let release!: () => void;
    const held = new Promise<number>((resolve) => (release = () => resolve(200)));
    const receiver = await startWebhookReceiver(() => held);
    const outcomes: string[] = [];
    const heartbeat = startHeartbeat({ url: `${receiver.url}/ping/abc`, policy: parseDestinationPolicy(true), timeoutMs: 10_000, onPing: (o) => outcomes.push(o) });
    try {
      heartbeat.afterCycle({ queries: 2, failedQueries: 0 });
      await receiver.next();
      heartbeat.afterCycle({ queries: 2, failedQueries: 0 });
      heartbeat.afterCycle({ queries: 0, failedQueries: 0 });
      expect(outcomes).toEqual(['skipped', 'skipped']);
      release();
      await vi.waitFor(() => expect(outcomes).toEqual(['skipped', 'skipped', 'sent']));
      heartbeat.afterCycle({ queries: 1, failedQueries: 0 });
      await vi.waitFor(() => expect(outcomes).toEqual(['skipped', 'skipped', 'sent', 'sent']));
      expect(receiver.received.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /ping/abc', 'GET /ping/abc']);
    } finally {
      await heartbeat.stop();
      await receiver.close();
    }
  });

  it('withholds the ping after a failed or given-up cycle and tells why, and tells nothing once stopped', async () => {
    const receiver = await startWebhookReceiver();
    const withheld: string[] = [];
    const heartbeat = startHeartbeat({ url: `${receiver.url}/ping/abc`, policy: parseDestinationPolicy(true), timeoutMs: 10_000, onUnhealthy: (reason) => withheld.push(reason) });
    try {
      heartbeat.afterFailedCycle();
      heartbeat.afterFailedCycle('lease_lost');
      heartbeat.afterCycle({ queries: 2, failedQueries: 2 });
      expect(withheld).toEqual(['cycle_failed', 'lease_lost', 'graphite_failed']);
      await heartbeat.stop();
      heartbeat.afterFailedCycle('lease_lost');
      expect(withheld).toHaveLength(3);
      expect(receiver.received).toEqual([]);
    } finally {
      await heartbeat.stop();
      await receiver.close();
    }
  });

  it('gives up on a ping after its time limit and counts it failed', async () => {
    const receiver = await startWebhookReceiver(() => new Promise<number>(() => undefined));
    const outcomes: string[] = [];
    const heartbeat = startHeartbeat({ url: `${receiver.url}/ping/abc`, policy: parseDestinationPolicy(true), timeoutMs: 100, onPing: (o) => outcomes.push(o) });
    try {
      heartbeat.afterCycle({ queries: 1, failedQueries: 0 });
      await vi.waitFor(() => expect(outcomes).toEqual(['failed']));
    } finally {
      await heartbeat.stop();
      await receiver.close();
    }
  });
});
