import { canonicalDestination, canonicalTemplate, type CanonicalChannel } from '../../model/canonical.js';
import type { ChannelRead, ChannelType } from '../../model/types.js';
import type { ChannelDefinition } from '../../definitions/definitions.js';
import { pick, type AdapterOf } from './adapter.js';

/**
 * Channel types whose destination is a credential: always masked in every rendering. gitops.md lists pagerduty,
 * opsgenie, slack and webhook; victorops too, because its REST endpoint URL carries the account's API key.
 */
export const SECRET_DESTINATION_TYPES: ReadonlySet<ChannelType> = new Set(['pagerduty', 'opsgenie', 'slack', 'webhook', 'victorops']);

function canonical(c: ChannelDefinition | ChannelRead): CanonicalChannel {
  return {
    description: c.description,
    type: c.type,
    destination: canonicalDestination(c.destination),
    auto_resolve: c.auto_resolve ?? false,
    template: canonicalTemplate(c.template),
  };
}

/** Notification channels (/v2/notifications/), identified by description. */
export const channelAdapter: AdapterOf<'channel'> = {
  kind: 'channel',
  keyOf: (read) => read.description,
  idOf: (read) => read.id,
  canonicalDesired: (spec) => canonical(spec),
  canonicalActual: (read) => canonical(read),
  // The template is an alertform extension: a server that does not return it (the hosted service) is not compared on it.
  unknownFields: (read) => (read.template === undefined ? ['template'] : []),
  references: () => [],
  secretPaths: (c) => (SECRET_DESTINATION_TYPES.has(c.type) ? ['destination'] : []),
  // A create without a template is exactly the Hosted Graphite body.
  createBody: ({ template, ...c }) => (template ? { ...c, template } : c),
  updateBody: (c, _ids, fields) => pick(c, fields),
  create: (client, body) => client.createChannel(body),
  update: (client, id, body) => client.updateChannel(id, body),
  remove: (client, id) => client.deleteChannel(id),
};
