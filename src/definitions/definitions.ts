import type { AlertBody, ChannelBody, ScheduleBody } from '../model/types.js';
import type { SourceLocation } from './problems.js';
import type { DependsOnDefinition, FlapGuardDefinition, ThrottleDefinition } from '../model/noise-control.js';
import type { MaintenanceWindowBody } from '../model/maintenance-window.js';

/** `muted` in a definition: absent leaves manual mutes alone, false keeps unmuted, {until} keeps muted until then. */
export type MutedDefinition = false | { until: string };

/** An escalation step as written: `after: 15m` (the duration grammar, whole minutes), `notify: [channel names or ids]`. */
export interface EscalationStepDefinition {
  after: string | number;
  notify: string[];
}

/** A named list of steps under `escalation_policies:`, that alerts name in `escalation:`. */
export interface EscalationPolicyDefinition {
  name: string;
  steps: EscalationStepDefinition[];
}

/**
 * An alert as written in a definitions file: the API's fields plus the declarative `muted`; `escalation` is inline
 * steps or a policy's name (replaced by the policy's steps when the definitions load); `flap_guard` with its
 * `window:` in the duration grammar.
 */
export interface AlertDefinition extends Omit<AlertBody, 'escalation' | 'flap_guard' | 'depends_on'> {
  muted?: MutedDefinition;
  escalation?: string | EscalationStepDefinition[];
  flap_guard?: FlapGuardDefinition | null;
  /** Parents by name (or id); a bare name is short for `{alert: name}`. */
  depends_on?: DependsOnDefinition[] | null;
}

/** A channel as written in a definitions file: the API's fields, `throttle` with its `window:` in the duration grammar. */
export interface ChannelDefinition extends Omit<ChannelBody, 'throttle'> {
  throttle?: ThrottleDefinition | null;
}
export type ScheduleDefinition = ScheduleBody;
/**
 * A maintenance window as written: the API's fields, channels in `match.channels` by name (or id), and `duration` in
 * minutes or in the duration grammar (`2h`, `1h30m`).
 */
export type MaintenanceWindowDefinition = Omit<MaintenanceWindowBody, 'duration'> & { duration: number | string };

export type ResourceKind = 'schedule' | 'channel' | 'alert' | 'maintenance window';

/** Kinds in the order they are created; deletes run in the reverse order. A window names channels only, but reads best last. */
export const RESOURCE_KINDS: readonly ResourceKind[] = ['schedule', 'channel', 'alert', 'maintenance window'];

/** One resource defined in a file, with where it was written and which of its fields are secret. */
export interface Defined<T> {
  kind: ResourceKind;
  /** Identity: an alert's or schedule's name, a channel's description. */
  key: string;
  spec: T;
  location: SourceLocation;
  /** Dot path of the resource inside its document, e.g. `alerts.2`. */
  path: string;
  /** Dot paths inside `spec` whose value came from the environment (`${VAR}`): shown as `(sensitive)`. */
  sensitivePaths: string[];
  /** Where a field of this resource was written (falls back to the resource itself). */
  locate(path: string): SourceLocation;
  /** Where character `offset` of a string field was written, where that can be told (else as `locate`). */
  locateIn?(path: string, offset: number): SourceLocation;
}

/** Everything a definitions directory declares. */
export interface Definitions {
  schedules: Defined<ScheduleDefinition>[];
  channels: Defined<ChannelDefinition>[];
  alerts: Defined<AlertDefinition>[];
  /** `maintenance_windows:` (absent in definitions made before them: read as none). */
  maintenanceWindows?: Defined<MaintenanceWindowDefinition>[];
  /** `escalation_policies:` (not a resource of the server: expanded into the alerts that name them). */
  escalationPolicies?: DefinedPolicy[];
  /**
   * Descriptions of channels written in the files but refused by the schema (so not in `channels`): a reference to
   * one is not a channel outside the files, whatever else is wrong with it.
   */
  refusedChannels?: string[];
}

/** An escalation policy with where it was written (a Defined without a resource kind). */
export type DefinedPolicy = Omit<Defined<EscalationPolicyDefinition>, 'kind'>;

export function emptyDefinitions(): Definitions {
  return { schedules: [], channels: [], alerts: [], maintenanceWindows: [], escalationPolicies: [] };
}
