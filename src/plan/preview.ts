import type { Definitions } from '../definitions/definitions.js';
import { canonicalTemplate, type CanonicalAlert, type CanonicalCriteria } from '../model/canonical.js';
import type { ChannelType, MessageTemplate } from '../model/types.js';
import { Redactor } from '../redact/redactor.js';
import { secretValuesOfDefinitions } from '../redact/plan.js';
import { describeText, summarize } from '../notifications/describe.js';
import type { Notification } from '../notifications/types.js';
import { MESSAGE_LIMITS } from '../notifications/templates/limits.js';
import { composeMessage } from '../notifications/templates/message.js';
import type { ActualState } from './state.js';
import type { MessagePreview, PlanChange } from './types.js';

export type { MessagePreview } from './types.js';


/** The made-up alert a channel's template is previewed with. */
const SAMPLE_ALERT: CanonicalAlert = {
  name: 'Sample alert',
  metric: 'servers.web-1.cpu',
  alert_criteria: { type: 'above', above_value: 90, time_period: 5 },
  additional_criteria: {},
  expression: 'a',
  notification_channels: [],
  notification_type: ['every', 60],
  scheduled_mutes: [],
  info: 'A sample alert: this is how the channel will show a real one.',
  on_query_failure: null,
  pagerduty_severity: null,
  opsgenie_priority: null,
  on_no_data: null,
};

/** A value that meets the criteria (past the threshold), or null for `missing`. */
function firingValue(criteria: CanonicalCriteria): number | null {
  switch (criteria.type) {
    case 'above':
    case 'outside_bounds':
      return (criteria.above_value ?? 0) + 1;
    case 'below':
      return (criteria.below_value ?? 0) - 1;
    case 'missing':
      return null;
  }
}

/** The alerting notification an alert would send, with placeholder links (the real ones are signed at send time). */
function sampleNotification(alert: CanonicalAlert, now: Date): Notification {
  return {
    event: 'alerting',
    alert: {
      id: 'preview',
      name: alert.name,
      metric: alert.metric,
      alert_criteria: alert.alert_criteria,
      additional_criteria: alert.additional_criteria,
      expression: alert.expression,
      info: alert.info || null,
      notification_type: alert.notification_type,
    },
    triggered: [{ metric: alert.metric, value: firingValue(alert.alert_criteria) }],
    conditions: [],
    graphUrl: '(graph link)',
    consoleUrl: '(console link)',
    ackUrl: '(ack link)',
    time: Math.floor(now.getTime() / 1000),
  };
}

/** The templates each channel will have after the plan: the definitions' where defined, else the server's. */
function channelTemplates(desired: Definitions, actual: ActualState): Map<string, { type: ChannelType; template: MessageTemplate }> {
  const out = new Map<string, { type: ChannelType; template: MessageTemplate }>();
  for (const read of actual.channels) {
    const template = canonicalTemplate(read.template);
    if (template) out.set(read.description, { type: read.type, template });
  }
  for (const item of desired.channels) {
    const template = canonicalTemplate(item.spec.template);
    if (template) out.set(item.key, { type: item.spec.type, template });
    else out.delete(item.key);
  }
  return out;
}

/**
 * The previews of a plan's changes, in the order of the changes. Pure: what the notifiers would send (the same
 * message builder, plain text, cut to each provider's limits), with every value that came from the environment
 * masked, including a no-op channel's template that the change redactors do not know.
 */
export function previewMessages(changes: readonly PlanChange[], desired: Definitions, actual: ActualState, now: Date): MessagePreview[] {
  const templates = channelTemplates(desired, actual);
  const previews: MessagePreview[] = [];
  const render = (changeId: string, channel: string, alert: CanonicalAlert, subject: MessagePreview['subject']) => {
    const entry = templates.get(channel);
    if (!entry) return;
    const notification = sampleNotification(alert, now);
    const message = composeMessage(
      notification,
      entry.template,
      'plain',
      { title: () => summarize(notification), body: () => describeText(notification) },
      MESSAGE_LIMITS[entry.type],
    );
    previews.push({ changeId, channel, type: entry.type, subject, alert: alert.name, title: message.title, body: message.body });
  };
  for (const change of changes) {
    if (change.action !== 'create' && change.action !== 'update') continue;
    if (change.kind === 'channel') {
      const templateChanged = change.action === 'create' || change.diffs.some((diff) => diff.path === 'template' || diff.path.startsWith('template.'));
      if (templateChanged) render(change.id, change.key, SAMPLE_ALERT, 'sample');
    } else if (change.kind === 'alert') {
      for (const channel of change.after.notification_channels) render(change.id, channel, change.after, 'alert');
    }
  }
  const redactor = new Redactor(secretValuesOfDefinitions(desired));
  return previews.map((preview) => redactor.redactDeep(preview));
}
