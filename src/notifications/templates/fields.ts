/**
 * The fields a message template may use, in one place: the checker refuses any other name, the view is built with
 * exactly these, and docs/server.md lists them.
 */

/** Fields printed with `{{name}}` at the top level (strings). */
export const SCALAR_FIELDS = [
  'name',
  'value',
  'metric',
  'criteria',
  'info',
  'event',
  'summary',
  'time',
  'links.console',
  'links.graph',
  'links.ack',
] as const;

/** Groups: used as sections (`{{#links.ack}}...{{/links.ack}}`) or through their members, never printed whole. */
export const GROUP_FIELDS = ['links'] as const;

/** Lists: sections that repeat per item; inside, the item's own fields (and every top-level field) are in scope. */
export const LIST_FIELDS: Readonly<Record<string, readonly string[]>> = {
  triggered: ['metric', 'value'],
};

export type ScalarField = (typeof SCALAR_FIELDS)[number];

/** What a template is rendered with (every value a string; lists of items with string fields). */
export interface TemplateView {
  name: string;
  value: string;
  metric: string;
  criteria: string;
  info: string;
  event: string;
  summary: string;
  time: string;
  triggered: { metric: string; value: string }[];
  links: { console: string; graph: string; ack: string };
}

const SCALARS: ReadonlySet<string> = new Set(SCALAR_FIELDS);
const GROUPS: ReadonlySet<string> = new Set(GROUP_FIELDS);

/** How a name is known where it is used: a printable field, a group, a list, or not at all. */
export function classifyField(name: string, listItem: readonly string[] | null): 'scalar' | 'group' | 'list' | 'unknown' {
  if (listItem?.includes(name)) return 'scalar';
  if (SCALARS.has(name)) return 'scalar';
  if (GROUPS.has(name)) return 'group';
  if (Object.hasOwn(LIST_FIELDS, name)) return 'list';
  return 'unknown';
}

/** Every name a template may use, for error messages. */
export function knownFieldNames(): string[] {
  return [...SCALAR_FIELDS, ...Object.entries(LIST_FIELDS).map(([list, items]) => `${list}[${items.join(', ')}]`)];
}
