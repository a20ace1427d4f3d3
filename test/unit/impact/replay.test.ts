import { describe, expect, it } from 'vitest';
import type { RenderSeries } from '../../../src/graphite/types.js';
import { replayAlert, type ReplayableAlert } from '../../../src/impact/replay.js';

const T0 = 1_767_571_200; // a multiple of 60
const minutes = (target: string, high: [number, number], value: number, base: number): RenderSeries => ({
  target,
  datapoints: Array.from({ length: 60 }, (_, m) => [m >= high[0] && m <= high[1] ? value : base, T0 + m * 60] as [number, number]),
});
// cpu above 90 in minutes 10-29, load above 5 in minutes 20-39.
const series = new Map([
  ['web.cpu', [minutes('web.cpu', [10, 29], 95, 10)]],
  ['web.load', [minutes('web.load', [20, 39], 8, 1)]],
]);

function composite(expression: string, notification_type: ReplayableAlert['notification_type']): ReplayableAlert {
  return {
    metric: 'web.cpu',
    alert_criteria: { type: 'above', above_value: 90, time_period: 2 },
    additional_criteria: { b: { metric: 'web.load', type: 'above', above_value: 5, time_period: 2 } },
    expression,
    notification_type,
    notification_channels: ['pager', 'quiet-pager'],
  };
}

const window = { start: T0 - 1, end: T0 + 60 * 60 - 1 };
const channels = new Map([
  ['pager', { type: 'pagerduty' as const, auto_resolve: true }],
  ['quiet-pager', { type: 'pagerduty' as const, auto_resolve: false }],
]);

describe('replayAlert', () => {
  it('replays a && b: alerting while both windows breach (minutes 21-29), one episode', () => {
    // a holds from minute 11 (two points above) to 29, b from 21 to 39: both from 21 to 29.
    const result = replayAlert(composite('a && b', ['state_change']), series, { ...window, channels });
    expect(result).toMatchObject({ stepSeconds: 60, fired: 1, alertingMinutes: 9, longestEpisodeMinutes: 9, notifications: { pager: 2, 'quiet-pager': 1 } });
    expect(result.episodes).toEqual([{ start: T0 + 21 * 60 + 59, end: T0 + 30 * 60 + 59 }]);
  });

  it('replays a || b with every 5: the alerting notice, a reminder every 5 minutes, the recovery', () => {
    // Alerting minutes 11-39 (29); notices at 11, reminders at 16, 21, 26, 31, 36; recovery at 40.
    const result = replayAlert(composite('a || b', ['every', 5]), series, { ...window, channels });
    expect(result).toMatchObject({ fired: 1, alertingMinutes: 29, notifications: { pager: 7, 'quiet-pager': 6 } });
  });

  it('holds back notices while muted and sends the held-back alerting notice when the mute ends', () => {
    // Muted for minutes 11-20: nothing sent; at 21 the alerting notice (no backoff yet), reminders at 26, 31, 36,
    // then the recovery of an episode the channels were told about.
    const mutedAt = (at: number) => at < T0 + 21 * 60;
    const result = replayAlert(composite('a || b', ['every', 5]), series, { ...window, channels, mutedAt });
    expect(result).toMatchObject({ fired: 1, alertingMinutes: 29, notifications: { pager: 5, 'quiet-pager': 4 } });
  });

  it('sends nothing for an episode that falls wholly in a mute, not even its recovery', () => {
    const mutedAt = (at: number) => at < T0 + 45 * 60;
    const result = replayAlert(composite('a || b', ['state_change']), series, { ...window, channels, mutedAt });
    expect(result).toMatchObject({ fired: 1, notifications: { pager: 0, 'quiet-pager': 0 } });
  });
});
