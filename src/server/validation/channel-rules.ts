import { docsUrl } from '../../model/docs-url.js';
import { canonicalDestination } from '../../model/canonical.js';
import { AUTO_RESOLVE_TYPES } from '../../model/defaults.js';
import { checkAutoResolve, checkDestination } from '../../model/rules.js';
import { echo } from '../errors.js';
import { PUBLIC_ONLY, refuseLiteralDestination, type DestinationPolicy } from '../net/destination-policy.js';
import type { FieldProblem } from '../../model/schemas.js';
import type { ChannelBody } from '../../model/types.js';
import type { ChannelRecord, ChannelWrite } from '../store/store.js';
import type { RuleResult } from './alert-rules.js';
import { checkChannelTemplate } from '../../notifications/templates/check-template.js';

/**
 * The semantic rules of a channel body that already passed the JSON Schema: the destination suits the type,
 * and auto_resolve: true only on pagerduty and victorops (on other types it would silently do nothing, so it
 * is refused; false is accepted everywhere); a template parses and names only known fields.
 */
export function checkChannelRules(body: ChannelBody, policy: DestinationPolicy = PUBLIC_ONLY, stored?: ChannelRecord): RuleResult<ChannelWrite> {
  const refuseUrl = (url: string) => {
    // A literal address the deliveries would refuse is refused now; host names are judged at connect time.
    const refusal = refuseLiteralDestination(policy, url);
    return refusal ? `must not lead to a ${refusal} (see ${docsUrl('security.md')})` : null;
  };
  const problems: FieldProblem[] = [
    ...(keepsUnaddressedEmail(body, stored) ? [] : checkDestination(body.type, body.destination, { show: echo, refuseUrl })),
    ...checkAutoResolve(body.type, body.auto_resolve),
    ...checkChannelTemplate(body.template).map(({ path, message }) => ({ path, message })),
  ];
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      type: body.type,
      description: body.description,
      destination: canonicalDestination(body.destination),
      autoResolve: body.auto_resolve ?? false,
      throttle: body.throttle ?? null,
      template: body.template ?? null,
      groupBy: body.group_by ?? null,
    },
  };
}

/**
 * An account made without an email gets its `Email me` channel with an empty destination. A GET of it must be
 * PUT back as it is (a description change, a client that round-trips): an email channel whose empty destination
 * the update leaves empty keeps it. Setting a destination is checked as always.
 */
function keepsUnaddressedEmail(body: ChannelBody, stored: ChannelRecord | undefined): boolean {
  return stored !== undefined && stored.type === 'email' && body.type === 'email' && stored.destination === '' && body.destination.trim() === '';
}

/** The body a channel PUT stands for. A type change to one without auto-resolution drops a stored auto_resolve. */
export function mergeChannelUpdate(stored: ChannelRecord, patch: Partial<ChannelBody>): ChannelBody {
  const type = patch.type ?? stored.type;
  const autoResolve = patch.auto_resolve ?? (AUTO_RESOLVE_TYPES.includes(type) ? stored.autoResolve : false);
  return {
    type,
    description: patch.description ?? stored.description,
    destination: patch.destination ?? stored.destination,
    auto_resolve: autoResolve,
    throttle: 'throttle' in patch ? patch.throttle : (stored.throttle ?? null),
    template: 'template' in patch ? patch.template : (stored.template ?? null),
    group_by: 'group_by' in patch ? patch.group_by : (stored.groupBy ?? null),
  };
}
