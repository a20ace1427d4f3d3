import { isObject } from '../moira/read-moira.js';

/**
 * Grafana's alerting export as `GET /api/v1/provisioning/alert-rules/export` and file provisioning write it (YAML
 * or JSON): `groups` of `rules`, and, in a contact points export or the same file, `contactPoints`. Only what the
 * mapping reads is typed; the rest is kept for the report.
 */
export interface GrafanaRule {
  uid?: string;
  title?: string;
  condition?: string;
  data?: GrafanaQuery[];
  noDataState?: string;
  execErrState?: string;
  for?: string;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  isPaused?: boolean;
  notification_settings?: Record<string, unknown> & { receiver?: string };
  [field: string]: unknown;
}

export interface GrafanaQuery {
  refId?: string;
  relativeTimeRange?: { from?: number; to?: number };
  datasourceUid?: string;
  model?: Record<string, unknown>;
}

export interface GrafanaGroup {
  name?: string;
  folder?: string;
  interval?: string;
  rules?: GrafanaRule[];
}

export interface GrafanaContactPoint {
  name?: string;
  receivers?: { uid?: string; type?: string; settings?: Record<string, unknown>; disableResolveMessage?: boolean }[];
}

export interface GrafanaExport {
  groups: GrafanaGroup[];
  contactPoints: GrafanaContactPoint[];
}

/** Adds one parsed document to the export; throws on a shape that is not Grafana's export. */
export function readGrafanaDocument(document: unknown, into: GrafanaExport = { groups: [], contactPoints: [] }): GrafanaExport {
  if (!isObject(document)) throw new Error('not a Grafana alerting export (expected an object with "groups" or "contactPoints")');
  const groups = document.groups;
  const contactPoints = document.contactPoints;
  if (!Array.isArray(groups) && !Array.isArray(contactPoints)) throw new Error('not a Grafana alerting export: no "groups" or "contactPoints"');
  if (Array.isArray(groups)) into.groups.push(...groups.filter(isObject));
  if (Array.isArray(contactPoints)) into.contactPoints.push(...contactPoints.filter(isObject));
  return into;
}
