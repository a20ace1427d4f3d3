/**
 * The read caches' memory (http/account-cache.ts, http/alert-read-cache.ts): at most `maxEntries` values (the
 * oldest stored dropped first), each trusted at most `maxAgeMs`. The age is a backstop only: the caches are emptied
 * on every change they are told of; it bounds what a change they were not told of (a PostgreSQL LISTEN connection
 * that died without a word) could keep alive.
 */
export class RecentMap<V> {
  private readonly entries = new Map<string, { value: V; storedAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value stored for `key` less than maxAgeMs ago; undefined otherwise. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && this.now() - entry.storedAt < this.maxAgeMs ? entry.value : undefined;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, storedAt: this.now() });
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The caches' check of their change feed: answers `version()` (null: no feed now, cache nothing), and empties `maps`
 * first whenever it moved since the last call, so that nothing stored before a change is answered after it.
 */
export function emptiedOnChange(version: () => number | null, ...maps: RecentMap<unknown>[]): () => number | null {
  let seen: number | null = null;
  return () => {
    const now = version();
    if (now !== seen) {
      for (const map of maps) map.clear();
      seen = now;
    }
    return now;
  };
}
