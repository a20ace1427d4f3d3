import { AlertformError } from '../model/errors.js';

/**
 * Names and ids of one kind of referenced object (channels or schedules), from the files and the server, so that
 * both sides of a comparison speak names: definitions may write names or ids, the server answers with ids.
 */
export class NameIndex {
  private readonly keyById = new Map<string, string>();
  private readonly known = new Set<string>();

  constructor(desiredKeys: Iterable<string>, actual: Iterable<{ id: string; key: string }>) {
    for (const key of desiredKeys) this.known.add(key);
    for (const { id, key } of actual) {
      this.keyById.set(id, key);
      this.known.add(key);
    }
  }

  /** The name a definition's reference means, or undefined when it is neither a known name nor a server id. */
  resolve(ref: string): string | undefined {
    if (this.known.has(ref)) return ref;
    return this.keyById.get(ref);
  }

  /** The name of a server id; an id we cannot name stays as it is (and then shows up as a difference). */
  nameOf(id: string): string {
    return this.keyById.get(id) ?? id;
  }
}

/** The ids of objects by kind and name, filled from the server and, during apply, by each create. */
export class IdRegistry {
  private readonly ids = new Map<string, string>();

  set(kind: string, key: string, id: string): void {
    this.ids.set(`${kind}\u0000${key}`, id);
  }

  get(kind: string, key: string): string | undefined {
    return this.ids.get(`${kind}\u0000${key}`);
  }

  /** The id of a referenced object, which must be known by now (its create ran first). */
  require(kind: string, key: string): string {
    const id = this.get(kind, key);
    if (id === undefined) throw new AlertformError('unknown_reference', `no id known for ${kind} "${key}"`);
    return id;
  }
}
