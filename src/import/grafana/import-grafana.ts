import type { ImportedChannel, ImportResult } from '../import-types.js';
import { uniqueAlertNames } from '../unique-names.js';
import { mapGrafanaContactPoints } from './map-contact-points.js';
import { mapGrafanaRule } from './map-rule.js';
import type { GrafanaExport } from './read-grafana.js';

/**
 * Grafana's alert rules (and contact points, when given) as alertform definitions, one file per folder. Rules are
 * taken in folder, group and uid order so that the same export always writes the same files. The group's
 * evaluation interval is not carried over: alertform judges every 30 s bucket.
 */
export function importGrafana(source: GrafanaExport): ImportResult {
  const droppedOther: ImportResult['droppedOther'] = [];
  const channels: ImportedChannel[] = [];
  const receivers = source.contactPoints.length > 0 ? mapGrafanaContactPoints(source.contactPoints, channels, droppedOther) : null;
  const rules = source.groups
    .flatMap((group) => (group.rules ?? []).map((rule) => ({ rule, folder: String(group.folder ?? ''), group: String(group.name ?? '') })))
    .sort((x, y) => x.folder.localeCompare(y.folder) || x.group.localeCompare(y.group) || String(x.rule.uid ?? x.rule.title ?? '').localeCompare(String(y.rule.uid ?? y.rule.title ?? '')))
    .map(({ rule, folder, group }) => mapGrafanaRule(rule, folder, group, receivers));
  uniqueAlertNames(rules);
  const used = new Set(rules.flatMap((r) => r.alerts.flatMap((a) => a.notification_channels ?? [])));
  return { source: 'grafana', rules, channels: channels.filter((c) => used.has(c.description)), schedules: [], droppedOther };
}
