import type { ChannelType } from '../../model/types.js';
import type { ImportedChannel, ImportResult } from '../import-types.js';
import { shownValue } from '../import-types.js';
import type { MoiraContact } from './read-moira.js';

/**
 * Moira contacts as channels. A contact's value is what Moira's sender needs: for mail an address, for pagerduty
 * an integration key, for webhook a URL: those map. Slack and VictorOps contacts hold a channel name or routing key
 * that Moira's own sender settings complete (token, API URL), so no destination can be made of them alone;
 * telegram, pushover and the rest have no alertform channel type.
 */
export function mapMoiraContacts(contacts: readonly MoiraContact[], droppedOther: ImportResult['droppedOther']): Map<string, ImportedChannel> {
  const byId = new Map<string, ImportedChannel>();
  const used = new Set<string>();
  for (const contact of contacts) {
    const id = String(contact.id ?? '');
    const type = String(contact.type ?? '');
    const value = String(contact.value ?? '');
    const object = `contact ${id}`;
    const channelType = channelTypeOf(type, value);
    if (!channelType) {
      droppedOther.push({ object, field: 'type', value: type, why: WHY_NOT[type] ?? `Moira's "${type}" contacts have no alertform channel type` });
      continue;
    }
    let description = (typeof contact.name === 'string' && contact.name.trim()) || `${type} ${channelType === 'email' || channelType === 'webhook' ? value : id.slice(0, 8)}`;
    description = description.slice(0, 255);
    if (used.has(description)) description = `${description.slice(0, 240)} (${id.slice(0, 8)})`;
    used.add(description);
    byId.set(id, { description, type: channelType, destination: value });
    for (const field of Object.keys(contact)) {
      if (!CONTACT_FIELDS.has(field)) droppedOther.push({ object, field, value: shownValue(contact[field]), why: 'not known to the importer' });
    }
  }
  return byId;
}

const CONTACT_FIELDS = new Set(['id', 'type', 'value', 'name', 'user', 'team_id', 'extra_message']);

const WHY_NOT: Record<string, string> = {
  slack: "a Slack contact holds a channel name that Moira's bot token completes; alertform's slack channels take an incoming-webhook URL",
  victorops: "a VictorOps contact holds a routing key that Moira's API URL completes; alertform's victorops channels take the REST endpoint URL",
};

function channelTypeOf(type: string, value: string): ChannelType | null {
  if (type === 'mail' || type === 'email') return 'email';
  if (type === 'pagerduty') return 'pagerduty';
  if (type === 'webhook' && /^https?:\/\//.test(value)) return 'webhook';
  if (type === 'slack' && /^https:\/\/hooks\.slack\.com\//.test(value)) return 'slack';
  return null;
}
