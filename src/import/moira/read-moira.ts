/**
 * Moira's JSON as its API answers it, sorted into triggers, subscriptions and contacts by their shape: a trigger
 * (`GET /api/trigger/{id}`), a list of them (`GET /api/trigger`, `{list: [...]}`), a user's settings (`GET
 * /api/user/settings`: `{contacts, subscriptions}`), or lists of subscriptions or contacts. Only the fields the
 * mapping reads are typed; the rest is carried as it came, for the report.
 */
export interface MoiraTrigger {
  id?: string;
  name?: string;
  desc?: string;
  targets?: string[];
  warn_value?: number | null;
  error_value?: number | null;
  trigger_type?: string;
  tags?: string[];
  ttl_state?: string;
  ttl?: number;
  sched?: MoiraSchedule | null;
  expression?: string | null;
  [field: string]: unknown;
}

export interface MoiraSchedule {
  days?: { name?: string; enabled?: boolean }[] | null;
  tzOffset?: number;
  startOffset?: number;
  endOffset?: number;
}

export interface MoiraSubscription {
  id?: string;
  enabled?: boolean;
  tags?: string[];
  any_tags?: boolean;
  contacts?: string[];
  ignore_warnings?: boolean;
  ignore_recoverings?: boolean;
  [field: string]: unknown;
}

export interface MoiraContact {
  id?: string;
  type?: string;
  value?: string;
  name?: string;
  [field: string]: unknown;
}

export interface MoiraExport {
  triggers: MoiraTrigger[];
  subscriptions: MoiraSubscription[];
  contacts: MoiraContact[];
}

/** Sorts one parsed JSON document of Moira's into the export; throws on a shape that is none of Moira's. */
export function readMoiraDocument(document: unknown, into: MoiraExport = { triggers: [], subscriptions: [], contacts: [] }): MoiraExport {
  const place = (item: unknown): boolean => {
    if (!isObject(item)) return false;
    if (Array.isArray(item.targets)) into.triggers.push(item as MoiraTrigger);
    else if (Array.isArray(item.contacts) && (Array.isArray(item.tags) || 'any_tags' in item)) into.subscriptions.push(item as MoiraSubscription);
    else if (typeof item.type === 'string' && typeof item.value === 'string') into.contacts.push(item as MoiraContact);
    else return false;
    return true;
  };
  if (Array.isArray(document)) {
    for (const item of document) if (!place(item)) throw new Error('an item of the list is not a Moira trigger, subscription or contact');
    return into;
  }
  if (!isObject(document)) throw new Error('not a Moira trigger, list or user settings (expected a JSON object)');
  if (Array.isArray(document.list)) return readMoiraDocument(document.list, into);
  if (Array.isArray(document.contacts) || Array.isArray(document.subscriptions)) {
    if (Array.isArray(document.contacts)) readMoiraDocument(document.contacts, into);
    if (Array.isArray(document.subscriptions)) readMoiraDocument(document.subscriptions, into);
    return into;
  }
  if (!place(document)) throw new Error('not a Moira trigger (no "targets"), list ({"list": [...]}) or user settings');
  return into;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
