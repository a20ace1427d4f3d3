import { describe, expect, it } from 'vitest';
import { FairShare, defaultFairShare } from '../../../../src/server/outbox/fair-share.js';
import type { ClaimedDelivery } from '../../../../src/server/store/outbox.js';

const delivery = (accountId: string, destination: string): ClaimedDelivery => ({
  id: `${accountId}-${destination}-${Math.random()}`,
  accountId,
  alertId: 'alert',
  payload: {},
  attempts: 0,
  createdAt: 0,
  channel: { id: 'c', type: 'webhook', description: 'd', destination, autoResolve: false },
});

describe('the fair share of delivery slots', () => {
  it('defaults to half and a quarter of the slots, borrowing up to three quarters and a half', () => {
    expect(defaultFairShare(16)).toEqual({ perAccount: 8, perDestination: 4, accountCap: 12, destinationCap: 8 });
    expect(defaultFairShare(1)).toEqual({ perAccount: 1, perDestination: 1, accountCap: 1, destinationCap: 1 });
  });

  it('admits an account up to its share in the share pass and up to its cap in the spare pass, counting what is in flight', () => {
    const shares = new FairShare({ perAccount: 2, perDestination: 10, accountCap: 3, destinationCap: 10 });
    const inFlight = delivery('a', 'u1');
    shares.add(inFlight);
    const admit = shares.admitter();
    const row = (accountId: string) => ({ accountId, channelId: 'c', destination: `${accountId}-url-${Math.random()}` });
    expect([admit(row('a'), 'share'), admit(row('a'), 'share'), admit(row('b'), 'share')]).toEqual([true, false, true]);
    expect([admit(row('a'), 'spare'), admit(row('a'), 'spare')]).toEqual([true, false]);
    // Once the in-flight delivery ends, a new claim has room for it again.
    shares.remove(inFlight);
    expect(shares.admitter()(row('a'), 'share')).toBe(true);
  });

  it('limits one destination across accounts', () => {
    const shares = new FairShare({ perAccount: 10, perDestination: 1, accountCap: 10, destinationCap: 2 });
    const admit = shares.admitter();
    const to = (accountId: string) => ({ accountId, channelId: 'c', destination: 'https://hooks.example/same' });
    expect([admit(to('a'), 'share'), admit(to('b'), 'share'), admit(to('b'), 'spare'), admit(to('c'), 'spare')]).toEqual([true, false, true, false]);
  });
});
