import type { AlertformClient } from '../../client/api.js';
import type { ResourceKind } from '../../definitions/definitions.js';
import type { CanonicalResource } from '../types.js';
import type { IdRegistry } from '../references.js';

/** Resolves a definition's reference (name or id) to a name, reporting those that resolve to nothing. */
export interface DesiredReferences {
  channel(ref: string, path: string): string;
  schedule(ref: string, path: string): string;
}

/** Names a server object's referenced ids. */
export interface ActualReferences {
  channel(id: string): string;
  schedule(id: string): string;
}

/**
 * Everything the planner and apply need to know about one kind of resource, behind one interface (after grizzly's
 * handler): identity, the canonical form of both sides, the API body, and the four calls.
 */
export interface ResourceAdapter<Spec, Read, Canonical extends CanonicalResource, Body> {
  kind: ResourceKind;
  keyOf(read: Read): string;
  idOf(read: Read): string;
  canonicalDesired(spec: Spec, refs: DesiredReferences): Canonical;
  canonicalActual(read: Read, refs: ActualReferences): Canonical;
  /** Top-level fields a read left out (the hosted service's list reads may): they are not compared. */
  unknownFields(read: Read): string[];
  /** Names this object refers to, by kind. */
  references(canonical: Canonical): { channel: string[]; schedule: string[] };
  /** Paths that are credentials whatever their source (destinations of pagerduty, opsgenie, slack, webhook). */
  secretPaths(canonical: Canonical): string[];
  /** The API body of the given fields (all of them for a create), with names turned into ids. */
  toBody(canonical: Canonical, ids: IdRegistry, fields?: string[]): Body;
  create(client: AlertformClient, body: Body): Promise<string>;
  update(client: AlertformClient, id: string, body: Partial<Body>): Promise<unknown>;
  remove(client: AlertformClient, id: string): Promise<void>;
}

/** Keeps only `fields` of an object (all when not given). */
export function pick<T extends object>(value: T, fields?: string[]): T {
  if (!fields) return value;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in value) out[field] = (value as Record<string, unknown>)[field];
  return out as T;
}
