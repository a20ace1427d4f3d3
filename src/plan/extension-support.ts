import type { Defined } from '../definitions/definitions.js';
import type { Problem } from '../definitions/problems.js';
import type { ActualState } from './state.js';

/**
 * alertform's own fields, additive to the Hosted Graphite API: its server always answers them (`[]` or `null` when
 * unused); the hosted service never does.
 */
export const EXTENSION_FIELDS = {
  alert: ['escalation', 'flap_guard', 'pagerduty_severity', 'opsgenie_priority', 'settle_seconds', 'on_no_data', 'depends_on'],
  channel: ['throttle', 'template', 'group_by'],
} as const;

/**
 * Extensions newer than the rest: an alertform server from before them answers the older extensions but not these,
 * and would refuse a body with one. Told per field from the reads of its kind.
 */
const NEWER_FIELDS = { alert: ['depends_on'], channel: ['group_by'] } as const;

/**
 * Whether the server answers alertform's extensions, told from what it returned: yes when any alert or channel read
 * carries one of the fields; no when there are reads and none does (the hosted service, or an alertform server
 * older than them); unknown (undefined) with nothing read. Every account has at least `Email me`, so a real server
 * always gives a channel to tell by.
 */
export function serverAnswersExtensions(actual: ActualState): boolean | undefined {
  const reads: object[] = [...actual.alerts, ...actual.channels];
  if (reads.length === 0) return undefined;
  const fields = [...EXTENSION_FIELDS.alert, ...EXTENSION_FIELDS.channel];
  return reads.some((read) => fields.some((field) => field in read));
}

/**
 * A definition that sets an extension, planned against a server that does not answer them, is a problem at the
 * field, like schedules against a server without /v2/schedules/: the hosted service would refuse the body or drop
 * the field, and the plan could never show it applied. Unset, `null` and `[]` mean "none", which any server keeps.
 */
export function unsupportedExtensionProblems(
  desired: { alerts: readonly Defined<object>[]; channels: readonly Defined<object>[] },
  actual: ActualState,
): Problem[] {
  const answers = serverAnswersExtensions(actual);
  if (answers === undefined) return [];
  const problems: Problem[] = [];
  const check = (items: readonly Defined<object>[], fields: readonly string[], older = false) => {
    for (const item of items) {
      for (const field of fields) {
        const value = (item.spec as Record<string, unknown>)[field];
        if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
        problems.push({
          location: item.locate(field),
          path: `${item.path}.${field}`,
          message: older
            ? `${field} is an alertform server extension this server does not answer yet (an older alertform serve); remove it, or upgrade the server`
            : `${field} is an alertform server extension, and this server does not answer it (the hosted service has no such field); remove it, or plan against alertform serve`,
        });
      }
    }
  };
  if (answers === false) {
    check(desired.alerts, EXTENSION_FIELDS.alert);
    check(desired.channels, EXTENSION_FIELDS.channel);
    return problems;
  }
  const lacks = (reads: readonly object[], field: string) => reads.length > 0 && !reads.some((read) => field in read);
  check(desired.alerts, NEWER_FIELDS.alert.filter((field) => lacks(actual.alerts, field)), true);
  check(desired.channels, NEWER_FIELDS.channel.filter((field) => lacks(actual.channels, field)), true);
  return problems;
}
