import type { ImportResult } from '../import-types.js';
import { uniqueAlertNames } from '../unique-names.js';
import { mapMoiraContacts } from './map-contacts.js';
import { mapMoiraTrigger, type MoiraContext } from './map-trigger.js';
import { mapMoiraSchedule } from './map-schedule.js';
import type { MoiraExport, MoiraSchedule } from './read-moira.js';

/**
 * Moira's triggers (and, when given, the subscriptions and contacts that route them) as alertform definitions.
 * Triggers are taken in id order so that importing the same export twice writes the same files.
 */
export function importMoira(source: MoiraExport): ImportResult {
  const droppedOther: ImportResult['droppedOther'] = [];
  const channels = mapMoiraContacts(source.contacts, droppedOther);
  for (const subscription of source.subscriptions) {
    const object = `subscription ${String(subscription.id ?? '')}`;
    if (subscription.ignore_recoverings) droppedOther.push({ object, field: 'ignore_recoverings', value: 'true', why: "alertform's channels always hear a recovery of what they were told" });
    const restricts = subscription.sched ? (() => { const m = mapMoiraSchedule(subscription.sched as MoiraSchedule); return 'why' in m || m.schedules.length > 0; })() : false;
    if (restricts) droppedOther.push({ object, field: 'sched', value: JSON.stringify(subscription.sched).slice(0, 120), why: "a subscription's schedule mutes one route, alertform's schedules mute an alert: not carried over" });
    if (subscription.throttling) droppedOther.push({ object, field: 'throttling', value: String(subscription.throttling), why: 'channel throttling is set per channel in alertform (throttle:): not carried over' });
  }
  const context: MoiraContext = { subscriptions: source.subscriptions.length > 0 ? source.subscriptions : null, channels, schedules: new Map() };
  const triggers = [...source.triggers].sort((x, y) => String(x.id ?? x.name ?? '').localeCompare(String(y.id ?? y.name ?? '')));
  const rules = triggers.map((trigger) => mapMoiraTrigger(trigger, context));
  uniqueAlertNames(rules);
  const usedChannels = new Set(rules.flatMap((r) => r.alerts.flatMap((a) => a.notification_channels ?? [])));
  return {
    source: 'moira',
    rules,
    channels: [...channels.values()].filter((c) => usedChannels.has(c.description)),
    schedules: [...context.schedules.values()],
    droppedOther,
  };
}
