import type { AlertBody, ChannelBody, ScheduleBody } from '../model/types.js';
import type { SourceLocation } from './problems.js';

/** `muted` in a definition: absent leaves manual mutes alone, false keeps unmuted, {until} keeps muted until then. */
export type MutedDefinition = false | { until: string };

/** An alert as written in a definitions file: the API's fields plus the declarative `muted`. */
export interface AlertDefinition extends AlertBody {
  muted?: MutedDefinition;
}

export type ChannelDefinition = ChannelBody;
export type ScheduleDefinition = ScheduleBody;

export type ResourceKind = 'schedule' | 'channel' | 'alert';

/** Kinds in the order they are created; deletes run in the reverse order. */
export const RESOURCE_KINDS: readonly ResourceKind[] = ['schedule', 'channel', 'alert'];

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
}

export function emptyDefinitions(): Definitions {
  return { schedules: [], channels: [], alerts: [] };
}
