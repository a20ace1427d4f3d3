import { describe, expect, it } from 'vitest';
import { cycleIsHealthy, maskPingUrl } from '../../../src/server/evaluator/heartbeat.js';

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
