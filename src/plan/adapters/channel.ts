import { canonicalDestination, canonicalGroupBy, canonicalTemplate, type CanonicalChannel } from '../../model/canonical.js';
import type { ChannelRead, ChannelType } from '../../model/types.js';
import type { ChannelDefinition } from '../../definitions/definitions.js';
import { throttleFromDefinition, type ChannelThrottle } from '../../model/noise-control.js';
import { pick, type AdapterOf } from './adapter.js';

/**
 * Channel types whose destination is a credential: always masked in every rendering. gitops.md lists pagerduty,
 * opsgenie, slack and webhook; victorops too, because its REST endpoint URL carries the account's API key.
 */
export const SECRET_DESTINATION_TYPES: ReadonlySet<ChannelType> = new Set(['pagerduty', 'opsgenie', 'slack', 'webhook', 'victorops']);

function canonical(c: ChannelDefinition | ChannelRead, throttle: ChannelThrottle | null | undefined): CanonicalChannel {
  const groupBy = canonicalGroupBy(c.group_by);
  return {
    description: c.description,
    type: c.type,
    destination: canonicalDestination(c.destination),
    auto_resolve: c.auto_resolve ?? false,
    ...(throttle ? { throttle: { max_notifications: throttle.max_notifications, window_minutes: throttle.window_minutes } } : {}),
    template: canonicalTemplate(c.template),
    // Last and only when set: plans of channels without grouping read as before.
    ...(groupBy ? { group_by: groupBy } : {}),
  };
}

/** Notification channels (/v2/notifications/), identified by description. */
export const channelAdapter: AdapterOf<'channel'> = {
  kind: 'channel',
  keyOf: (read) => read.description,
  idOf: (read) => read.id,
  canonicalDesired: (spec) => canonical(spec, throttleFromDefinition(spec.throttle)),
  canonicalActual: (read) => canonical(read, read.throttle),
  // The throttle and the template are alertform extensions: a server that does not return one (the hosted service)
  // is not compared on it.
  unknownFields: (read) => [
    ...(read.throttle === undefined ? ['throttle'] : []),
    ...(read.template === undefined ? ['template'] : []),
    ...(read.group_by === undefined ? ['group_by'] : []),
  ],
  references: () => [],
  secretPaths: (c) => (SECRET_DESTINATION_TYPES.has(c.type) ? ['destination'] : []),
  // A create without a template (or throttle) is exactly the Hosted Graphite body.
  createBody: ({ template, ...c }) => (template ? { ...c, template } : c),
  // A throttle or grouping removed is sent as null (absent would leave the server's in place).
  updateBody: (c, _ids, fields) => pick({ ...c, throttle: c.throttle ?? null, group_by: c.group_by ?? null }, fields),
  create: (client, body) => client.createChannel(body),
  update: (client, id, body) => client.updateChannel(id, body),
  remove: (client, id) => client.deleteChannel(id),
};
