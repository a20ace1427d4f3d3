import { randomBytes } from 'node:crypto';

/**
 * Metric paths by their bytes: each distinct path read from the wire gets a small integer id, found again without
 * making a string. A line's path is hashed while the parser looks for its end, then compared byte by byte with the
 * path stored under that hash; the string of a path is made once, when the path is new (and dropped again when no
 * one reads the path, see `release`). What is known about a path (the subscribers that read it, its ring) is kept by
 * the table's owner in arrays indexed by the id.
 *
 * Bounded: at most `maxPaths` paths. Past that the table is emptied at the next `reserve()` (between chunks, never in
 * the middle of one) and refills: ids handed out before are void from then on (`epoch` moves on), so a stream of
 * more distinct paths than the bound costs one decision per path per refill, never more memory.
 */
export interface PathTableOptions {
  /** Most paths held; default 1,000,000. */
  maxPaths?: number;
}

/** The bits of the hash the table takes: 30, a small integer, which V8 passes between functions without boxing. */
export const HASH_MASK = 0x3fffffff;

/**
 * One step of the path hash over four bytes read as a little-endian 32-bit word: murmur3's block step. The parser
 * hashes a path four bytes at a time with it, then its last 0-3 bytes with hashByte, from the table's `seed`.
 */
export function hashWord(hash: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  hash ^= Math.imul(k, 0x1b873593);
  hash = (hash << 13) | (hash >>> 19);
  return (Math.imul(hash, 5) + 0xe6546b64) | 0;
}

/** One step of the path hash over one of its last bytes (FNV-1a's). */
export function hashByte(hash: number, byte: number): number {
  return Math.imul(hash ^ byte, 0x01000193);
}

/** The hash of `bytes[start, end)` as the parser computes it while scanning (for paths not read from plaintext). */
export function hashBytes(bytes: Uint8Array, start: number, end: number, seed: number): number {
  let hash = seed;
  let at = start;
  for (; at + 4 <= end; at += 4) hash = hashWord(hash, bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24));
  for (; at < end; at += 1) hash = hashByte(hash, bytes[at]!);
  return hash & HASH_MASK;
}

/**
 * The slot of a hash: murmur3's finaliser, so every bit of the hash reaches the low bits the slot is taken from
 * (FNV's low bits depend on the bytes' low bits alone, which a hostile sender could collide on).
 */
function mix(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

const FIRST_PATHS = 1024;

/** The platform's byte order, which an Int32Array over the arena reads in. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class PathTable {
  readonly maxPaths: number;
  /**
   * The hash's starting value, random per table: a sender who does not know it cannot choose paths that all land in
   * one slot chain (which would make each lookup walk them all).
   */
  readonly seed = randomBytes(4).readInt32LE(0);
  /** Moves on each time the table is emptied: ids of an earlier epoch mean nothing. */
  epoch = 0;
  /** Paths held. */
  size = 0;
  /**
   * Open addressing, two int32s a slot: id + 1 (0: empty) and the hash, at most 5/8 full. Small on purpose: a
   * lookup's one random read is here (8 bytes a slot keeps 10,000 paths' index in 128 KiB, within a core's cache);
   * what it then reads, by id, lies in the order the paths first came, which a stream mostly repeats.
   */
  private slots = new Int32Array(FIRST_PATHS * 2 * 2);
  /** Per id: where its bytes are in the arena, and how many. */
  private offsets = new Int32Array(FIRST_PATHS);
  private lengths = new Int32Array(FIRST_PATHS);
  /**
   * Per id: 1 + the id that came after it on its connection last time (0: none yet). A sender repeats its order
   * (a collector reports its metrics in the same order each interval): the path expected next is compared first,
   * in memory read in order, before the index's random read.
   */
  private followers = new Int32Array(FIRST_PATHS);
  /** Per id: its string while something reads it. */
  private strings: (string | undefined)[] = [];
  /** The bytes of every path, one after another. */
  private arena = new Uint8Array(FIRST_PATHS * 32);
  /**
   * The arena as 32-bit words in the platform's byte order (each path starts at a multiple of four bytes),
   * compared with a line's bytes read in the same order a word at a time.
   */
  private arenaWords = new Int32Array(this.arena.buffer);
  private used = 0;

  constructor(options: PathTableOptions = {}) {
    this.maxPaths = Math.max(1, options.maxPaths ?? 1_000_000);
  }

  /**
   * Empties the table if it is full. Called before each chunk is parsed: within one chunk ids stay valid, so the
   * table may exceed `maxPaths` by the lines of one chunk.
   */
  reserve(): void {
    if (this.size >= this.maxPaths) this.clear();
  }

  /**
   * The id of the path `bytes[start, end)` whose hash is `hash` (as hashBytes gives it), adding it when new.
   * `view` is a DataView over `bytes` (the same bytes): paths are compared four bytes at a time.
   */
  idOf(bytes: Uint8Array, view: DataView, start: number, end: number, hash: number): number {
    const length = end - start;
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let slot = mix(hash) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot << 1]!;
      this.lastProbe = held;
      if (held === 0) return this.add(bytes, start, length, hash, slot);
      if (slots[(slot << 1) + 1] !== hash) continue;
      const id = held - 1;
      if (this.lengths[id] === length && this.equals(id, bytes, view, start, end)) return id;
    }
  }

  /** The id that came after `previous` last time on its connection, or -1. */
  nextOf(previous: number): number {
    return this.followers[previous]! - 1;
  }

  /** How many bytes the path of `id` has. */
  lengthOf(id: number): number {
    return this.lengths[id]!;
  }

  /** Whether `bytes[start, end)` are the bytes of the path of `id` (`end - start` is its length). */
  equals(id: number, bytes: Uint8Array, view: DataView, start: number, end: number): boolean {
    // Four bytes at a time: the stored path's words read from the aligned arena, the line's from its DataView.
    const words = this.arenaWords;
    const offset = this.offsets[id]!;
    let word = offset >> 2;
    let at = start;
    for (; at + 4 <= end; at += 4, word += 1) if (words[word] !== view.getInt32(at, LITTLE_ENDIAN)) return false;
    const arena = this.arena;
    const delta = offset - start;
    for (; at < end; at += 1) if (arena[delta + at] !== bytes[at]) return false;
    return true;
  }

  /** Remembers that `id` came after `previous` (both of this epoch). */
  follow(previous: number, id: number): void {
    this.followers[previous] = id + 1;
  }

  /** The last slot value read (kept so that `prefetch` is not optimised away). */
  lastProbe = 0;

  /**
   * Reads the first slot of `hash` now, so that the memory is on its way while the caller does other work (the
   * parser reads the line's numbers) before it calls idOf: a lookup's one random read, overlapped.
   */
  prefetch(hash: number): void {
    const slots = this.slots;
    this.lastProbe = slots[(mix(hash) & ((slots.length >> 1) - 1)) << 1]!;
  }

  /** The id of a path given as a string (the pickle decoder's and the tests'). */
  idOfString(path: string): number {
    const bytes = Buffer.from(path, 'utf8');
    return this.idOf(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.length), 0, bytes.length, hashBytes(bytes, 0, bytes.length, this.seed));
  }

  /** The path of an id, its string made now if it is not held. */
  pathOf(id: number): string {
    let path = this.strings[id];
    if (path === undefined) {
      path = Buffer.from(this.arena.buffer, this.offsets[id]!, this.lengths[id]!).toString('utf8');
      this.strings[id] = path;
    }
    return path;
  }

  /** Drops the string of a path that no one reads (its bytes stay): unmatched paths cost no string. */
  release(id: number): void {
    this.strings[id] = undefined;
  }

  /** Bytes held: the paths' bytes and the index (not the strings), for the benchmark. */
  get bytes(): number {
    return this.arena.byteLength + this.slots.byteLength + this.offsets.byteLength * 4;
  }

  clear(): void {
    this.epoch += 1;
    this.size = 0;
    this.used = 0;
    this.slots = new Int32Array(FIRST_PATHS * 2 * 2);
    this.offsets = new Int32Array(FIRST_PATHS);
    this.lengths = new Int32Array(FIRST_PATHS);
    this.followers = new Int32Array(FIRST_PATHS);
    this.strings = [];
    this.arena = new Uint8Array(FIRST_PATHS * 32);
    this.arenaWords = new Int32Array(this.arena.buffer);
  }

  private add(bytes: Uint8Array, start: number, length: number, hash: number, slot: number): number {
    const id = this.size;
    if (id === this.offsets.length) {
      this.offsets = grown(this.offsets);
      this.lengths = grown(this.lengths);
      this.followers = grown(this.followers);
    }
    // At most 5/8 full: probes stay short.
    if ((id + 1) * 8 > (this.slots.length >> 1) * 5) slot = this.growIndex(hash);
    if (this.used + length > this.arena.length) {
      const arena = new Uint8Array(Math.max(this.arena.length * 2, (this.used + length + 3) & ~3));
      arena.set(this.arena.subarray(0, this.used));
      this.arena = arena;
      this.arenaWords = new Int32Array(arena.buffer);
    }
    this.arena.set(bytes.subarray(start, start + length), this.used);
    this.slots[slot << 1] = id + 1;
    this.slots[(slot << 1) + 1] = hash;
    this.offsets[id] = this.used;
    this.lengths[id] = length;
    // The next path starts at a word: equals() reads the arena a word at a time.
    this.used = (this.used + length + 3) & ~3;
    this.strings.push(undefined);
    this.size += 1;
    return id;
  }

  /** Doubles the index; answers the empty slot for `hash` in the new one. */
  private growIndex(hash: number): number {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    const place = (hashed: number) => {
      let slot = mix(hashed) & mask;
      while (slots[slot << 1] !== 0) slot = (slot + 1) & mask;
      return slot;
    };
    for (let at = 0; at < old.length; at += 2) {
      if (old[at] === 0) continue;
      const slot = place(old[at + 1]!);
      slots[slot << 1] = old[at]!;
      slots[(slot << 1) + 1] = old[at + 1]!;
    }
    this.slots = slots;
    return place(hash);
  }
}

function grown(old: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(old.length * 2);
  next.set(old);
  return next;
}
