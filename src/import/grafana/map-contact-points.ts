import type { ChannelType } from '../../model/types.js';
import type { ImportedChannel, ImportResult } from '../import-types.js';

/** The setting that holds each mappable Grafana integration's destination, and the alertform type it becomes. */
const INTEGRATIONS: Record<string, { type: ChannelType; setting: string }> = {
  email: { type: 'email', setting: 'addresses' },
  slack: { type: 'slack', setting: 'url' },
  pagerduty: { type: 'pagerduty', setting: 'integrationKey' },
  webhook: { type: 'webhook', setting: 'url' },
  victorops: { type: 'victorops', setting: 'url' },
  opsgenie: { type: 'opsgenie', setting: 'apiKey' },
};

/**
 * Grafana contact points as channels, named by the contact point (a contact point with several integrations
 * gives one channel each, the second and later named `NAME (TYPE)`). A destination the export redacted
 * (`[REDACTED]`: export with decrypt=true to keep it) or an integration alertform lacks is reported, not written.
 * Returns the channel names per contact point name, for the rules' receivers.
 */
export function mapGrafanaContactPoints(points: readonly import('./read-grafana.js').GrafanaContactPoint[], channels: ImportedChannel[], droppedOther: ImportResult['droppedOther']): Map<string, string[]> {
  const byPoint = new Map<string, string[]>();
  for (const point of points) {
    const name = String(point.name ?? '').trim();
    const names: string[] = [];
    for (const receiver of point.receivers ?? []) {
      const object = `contact point "${name}"`;
      const integration = INTEGRATIONS[String(receiver.type ?? '')];
      if (!integration) {
        droppedOther.push({ object, field: 'type', value: String(receiver.type), why: 'no alertform channel type for this integration' });
        continue;
      }
      const raw = receiver.settings?.[integration.setting];
      const destination = typeof raw === 'string' ? (integration.type === 'email' ? raw.split(/[;\n,]/).map((s) => s.trim()).filter(Boolean).join(',') : raw.trim()) : '';
      if (!destination || destination === '[REDACTED]') {
        droppedOther.push({ object, field: `settings.${integration.setting}`, value: destination || '(empty)', why: 'the export holds no destination (redacted: export with decrypt=true, or add the channel by hand)' });
        continue;
      }
      const description = names.length === 0 ? name : `${name} (${integration.type})`;
      channels.push({ description, type: integration.type, destination, ...(integration.type === 'pagerduty' || integration.type === 'victorops' ? { auto_resolve: receiver.disableResolveMessage !== true } : {}) });
      names.push(description);
      if (receiver.disableResolveMessage === true && integration.type !== 'pagerduty' && integration.type !== 'victorops') {
        droppedOther.push({ object, field: 'disableResolveMessage', value: 'true', why: 'alertform channels always hear the recovery of what they were told' });
      }
    }
    byPoint.set(name, names);
  }
  return byPoint;
}
