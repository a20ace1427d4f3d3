import { describe, expect, it } from 'vitest';
import { formatDeliveries } from '../../../src/cli/commands/deliveries.js';
import type { DeliveryRead } from '../../../src/model/types.js';

const NOW = 1_800_000_000_000;

function delivery(overrides: Partial<DeliveryRead>): DeliveryRead {
  return {
    id: 'd1',
    state: 'pending',
    channel: { id: 'c1', type: 'pagerduty', description: 'On call' },
    alert: { id: 'a1', name: 'CPU high' },
    event: 'alerting',
    attempts: 4,
    created_at: String(NOW / 1000 - 300),
    next_attempt_at: String(NOW / 1000 + 45),
    last_attempt_at: String(NOW / 1000 - 10),
    last_error: 'pagerduty answered HTTP 503',
    ...overrides,
  };
}

describe('alertform deliveries output', () => {
  it('prints one line per delivery: state, age, tries, channel, alert, event, next try and last error', () => {
    const text = formatDeliveries(
      [
        delivery({}),
        delivery({ id: 'd2', state: 'dead', created_at: String(NOW / 1000 - 2 * 86_400), next_attempt_at: null, event: 'recovered', attempts: 190 }),
      ],
      NOW,
    );
    expect(text).toBe(
      'pending     5m old    4 tries  pagerduty "On call"  CPU high: alerting  next try in 45s  last error: pagerduty answered HTTP 503\n' +
        'dead        2d old  190 tries  pagerduty "On call"  CPU high: recovered  last error: pagerduty answered HTTP 503\n' +
        '2 deliveries\n',
    );
  });

  it('says when there is nothing waiting', () => {
    expect(formatDeliveries([], NOW)).toBe('no pending or dead deliveries\n');
  });
});
