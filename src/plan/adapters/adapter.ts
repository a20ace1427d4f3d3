import type { AlertformClient } from '../../client/api.js';
import type { ResourceKind } from '../../definitions/definitions.js';
import type { CanonicalResource, KindTypes } from '../types.js';
import type { IdRegistry } from '../references.js';

/** Resolves a definition's reference (name or id) to a name, reporting those that resolve to nothing. */
export interface DesiredReferences {
  channel(ref: string, path: string): string;
  schedule(ref: string, path: string): string;
  alert(ref: string, path: string): string;
}

/** Names a server object's referenced ids. */
export interface ActualReferences {
  channel(id: string): string;
  schedule(id: string): string;
  alert(id: string): string;
}

/** One field of an object that names other objects: their kind, the field's path, the names. */
export interface Reference {
  kind: ResourceKind;
  path: string;
  names: readonly string[];
}

/** Every field of an object that names other objects. */
export type References = readonly Reference[];

/**
 * Everything the planner and apply need to know about one kind of resource, behind one interface (after grizzly's
 * handler): identity, the canonical form of both sides, the API body, and the four calls.
 */
export interface ResourceAdapter<Kind extends ResourceKind, Spec, Read, Canonical extends CanonicalResource, Body> {
  kind: Kind;
  keyOf(read: Read): string;
  idOf(read: Read): string;
  canonicalDesired(spec: Spec, refs: DesiredReferences): Canonical;
  canonicalActual(read: Read, refs: ActualReferences): Canonical;
  /** Top-level fields a read left out (the hosted service's list reads may): they are not compared. */
  unknownFields(read: Read): string[];
  /** Names this object refers to, by kind: what must exist before it, and may not go while it stays. */
  references(canonical: Canonical): References;
  /** Paths that are credentials whatever their source (destinations of pagerduty, opsgenie, slack, webhook, victorops). */
  secretPaths(canonical: Canonical): string[];
  /** The API body of a create, with names turned into ids. */
  createBody(canonical: Canonical, ids: IdRegistry): Body;
  /** The API body of an update that changes the given top-level fields. */
  updateBody(canonical: Canonical, ids: IdRegistry, fields: readonly string[]): Partial<Body>;
  create(client: AlertformClient, body: Body): Promise<string>;
  update(client: AlertformClient, id: string, body: Partial<Body>): Promise<unknown>;
  remove(client: AlertformClient, id: string): Promise<void>;
}

/** The adapter of kind K, typed with that kind's definition, read, canonical form and body. */
export type AdapterOf<K extends ResourceKind> = ResourceAdapter<K, KindTypes[K]['spec'], KindTypes[K]['read'], KindTypes[K]['canonical'], KindTypes[K]['body']>;

/** Keeps only `fields` of an object. */
export function pick<T extends object>(value: T, fields: readonly string[]): Partial<T> {
  const out: Partial<T> = {};
  for (const field of fields) if (isKeyOf(value, field)) out[field] = value[field];
  return out;
}

function isKeyOf<T extends object>(value: T, key: PropertyKey): key is keyof T {
  return key in value;
}
