import { describe, expect, it } from 'vitest';
import { buildEmail } from '../../../../src/server/notifiers/email.js';
import { buildOpsgenieCreate } from '../../../../src/server/notifiers/opsgenie.js';
import { buildPagerdutyEvent } from '../../../../src/server/notifiers/pagerduty.js';
import { buildSlackPayload } from '../../../../src/server/notifiers/slack.js';
import { buildVictoropsMessage } from '../../../../src/server/notifiers/victorops.js';
import { buildWebhookPayload } from '../../../../src/server/notifiers/webhook.js';
import { buildThrottledSummary } from '../../../../src/server/throttle/summary.js';
import type { Notification } from '../../../../src/notifications/types.js';
import { channel, plainNotification } from './fixtures.js';

const FLAPPING_LINE = '[FLAPPING] CPU "hot" <web> & co: changed state 5 times in 10 minutes; notifications paused until it is stable for 10 minutes';
const flapping = (): Notification => ({ ...plainNotification('flapping'), flapping: { changes: 5, window_minutes: 10 } });

/** A summary of 52 held notifications (the list stops at 50) on channel "ops", window 10:00..11:00 UTC. */
function summary(): Notification {
  const start = Date.UTC(2026, 0, 1, 10, 0, 0);
  const rows = Array.from({ length: 52 }, (_, i) => ({
    seq: i + 1,
    alert_id: `a${i}`,
    alert_name: i === 0 ? 'disk <full>' : `alert ${i}`,
    event: i === 1 ? 'recovered' : 'alerting',
    metric: `m.${i}`,
    value: i,
    created_at: start + (i + 1) * 60_000,
  }));
  return buildThrottledSummary(
    { channelId: 'ch1', description: 'ops', throttle: { max_notifications: 5, window_minutes: 60 }, startedAt: start, endsAt: start + 3_600_000 },
    rows,
    start + 3_600_000,
  );
}
const SUMMARY_LINE = '[THROTTLED] 52 notifications to ops held back between 10:00 and 11:00 UTC';

describe('flapping and throttled_summary notifications', () => {
  it('list the first 50 held notifications in order and count all of them', () => {
    const { throttled } = summary();
    expect(throttled!.held_count).toBe(52);
    expect(throttled!.held).toHaveLength(50);
    expect(throttled!.held.slice(0, 2)).toEqual([
      { alert_id: 'a0', alert_name: 'disk <full>', event: 'alerting', metric: 'm.0', value: 0, time: Date.UTC(2026, 0, 1, 10, 1) / 1000 },
      { alert_id: 'a1', alert_name: 'alert 1', event: 'recovered', metric: 'm.1', value: 1, time: Date.UTC(2026, 0, 1, 10, 2) / 1000 },
    ]);
  });

  it('are worded on every channel type', () => {
    expect(buildWebhookPayload(flapping())).toMatchObject({ status: 'flapping', flapping: { changes: 5, window_minutes: 10 } });
    expect(buildWebhookPayload(summary())).toMatchObject({ status: 'throttled_summary', throttled: { channel: 'ops', held_count: 52 } });

    const slack = buildSlackPayload(summary()) as { text: string; attachments: { fields: { title: string; value: string }[] }[] };
    expect(slack.text).toBe(SUMMARY_LINE);
    const held = slack.attachments[0]!.fields.find((field) => field.title === 'Held back')!.value.split('\n');
    expect(held[0]).toBe('10:01 disk &lt;full&gt;: alerting m.0 = 0');
    expect(held[1]).toBe('10:02 alert 1: recovered m.1 = 1');
    expect(held.at(-1)).toBe('… and 2 more');
    expect((buildSlackPayload(flapping()) as { text: string }).text).toBe(FLAPPING_LINE.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));

    const email = buildEmail(summary());
    expect(email.subject).toBe(SUMMARY_LINE);
    expect(email.text).toContain("The channel's throttle lets 5 notifications through per 60 minutes. Held back:\n  10:01 disk <full>: alerting m.0 = 0\n");
    expect(email.html).toContain('<li>10:01 disk &lt;full&gt;: alerting m.0 = 0</li>');
    expect(email.html).toContain('<tr><th align="left">Channel</th><td>ops</td></tr>');
    expect(email.html).not.toContain('Criteria');
    expect(buildEmail(flapping()).subject).toBe(FLAPPING_LINE);

    const pd = buildPagerdutyEvent(channel('pagerduty', 'key'), summary()) as { dedup_key: string; payload: { summary: string; severity: string } };
    expect([pd.dedup_key, pd.payload.summary, pd.payload.severity]).toEqual([`alertform-throttle-ch1-${Date.UTC(2026, 0, 1, 10)}`, SUMMARY_LINE, 'info']);
    const pdFlap = buildPagerdutyEvent(channel('pagerduty', 'key'), flapping()) as { dedup_key: string; payload: { severity: string } };
    // The alert's own incident: flapping is news about it.
    expect([pdFlap.dedup_key, pdFlap.payload.severity]).toEqual(['alertform-al_123', 'warning']);

    expect(buildOpsgenieCreate(summary())).toMatchObject({ message: SUMMARY_LINE.slice(0, 130), priority: 'P5' });
    expect(buildOpsgenieCreate(flapping())).toMatchObject({ priority: 'P3', alias: 'alertform-al_123' });
    expect(buildVictoropsMessage(channel('victorops', 'https://x'), summary())).toMatchObject({ message_type: 'INFO', entity_display_name: SUMMARY_LINE });
    expect(buildVictoropsMessage(channel('victorops', 'https://x'), flapping())).toMatchObject({ message_type: 'CRITICAL', entity_display_name: FLAPPING_LINE });
  });
});
