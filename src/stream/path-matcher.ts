import { compileGraphitePattern, type GraphiteMatcher } from '../model/graphite-target/glob.js';
import { isInsidePrefixes } from '../model/metric-prefixes.js';
import { ownCopy } from './carbon-point.js';

/**
 * Which subscribers (alerts' queries) read a received metric path, at wire speed.
 *
 * - A plain path is one map lookup.
 * - Globs live in a trie over path nodes: a literal node is a map lookup, `*` one shared child, and only the other
 *   glob nodes of one trie node (`web{1,2}`, `db-[0-9]*`) are tried one by one, each with Graphite's own glob
 *   matcher (model/graphite-target/glob.ts) on that node alone. A pattern's cost is paid at the nodes where it
 *   differs from the others, not on every path: 10,000 patterns under distinct literal first nodes cost a path
 *   the same as 100.
 * - Each new path is decided once and the answer cached (bounded, the oldest dropped first), so a path seen
 *   before, matched or not, costs one lookup.
 * - A subscriber confined to metric prefixes (an account's `--metric-prefix`) sees only paths that start with
 *   one of them, as the API confines its queries (server/validation/metric-prefixes.ts): the path itself is
 *   checked, whatever its pattern, so no glob reaches outside.
 */
export interface PathMatcherOptions {
  /** Most path decisions kept (matched or not). */
  cacheSize: number;
}

interface Entry<T> {
  subscriber: T;
  prefixes: readonly string[] | null;
}

class TrieNode<T> {
  literal: Map<string, TrieNode<T>> | null = null;
  star: TrieNode<T> | null = null;
  globs: Map<string, { matcher: GraphiteMatcher; node: TrieNode<T> }> | null = null;
  entries: Entry<T>[] = [];

  get empty(): boolean {
    return this.entries.length === 0 && !this.literal?.size && this.star === null && !this.globs?.size;
  }
}

type Registration<T> =
  | { kind: 'plain'; path: string; entry: Entry<T> }
  | { kind: 'trie'; segments: string[]; entry: Entry<T> }
  | { kind: 'whole'; matcher: GraphiteMatcher; entry: Entry<T> };

const EMPTY: readonly never[] = Object.freeze([]);
const WILDCARD = /[*?[{}]/;

export class PathMatcher<T> {
  private readonly cacheSize: number;
  private readonly plain = new Map<string, Entry<T>[]>();
  /** Each plain path's answer, made when it is subscribed: without globs, a path costs this one lookup. */
  private readonly plainAnswers = new Map<string, readonly T[]>();
  private readonly root = new TrieNode<T>();
  /** Patterns with a dot inside braces (`{a.b,c}`) span nodes: tried whole, one by one (rare). */
  private readonly whole: { matcher: GraphiteMatcher; entry: Entry<T> }[] = [];
  private readonly registrations = new Map<T, Registration<T>[]>();
  private readonly cache = new Map<string, readonly T[]>();
  private globCount = 0;
  /** Moves on with every add and remove: an answer given at an earlier version may be stale. */
  version = 0;

  constructor(options: PathMatcherOptions) {
    this.cacheSize = Math.max(1, options.cacheSize);
  }

  /**
   * Subscribes to the paths of one path expression (plain or glob). `allowedPrefixes`: the subscriber's account's
   * metric prefixes, null or empty when it is not confined. A subscriber may be added under several expressions.
   * Throws GlobSyntaxError for a malformed glob.
   */
  add(subscriber: T, query: string, allowedPrefixes: readonly string[] | null): void {
    this.version += 1;
    const entry: Entry<T> = { subscriber, prefixes: allowedPrefixes !== null && allowedPrefixes.length > 0 ? allowedPrefixes : null };
    let registration: Registration<T>;
    if (!WILDCARD.test(query)) {
      registration = { kind: 'plain', path: query, entry };
      const entries = this.plain.get(query);
      if (entries) entries.push(entry);
      else this.plain.set(query, [entry]);
      this.answerPlain(query);
    } else {
      const segments = nodesOf(query);
      if (segments === null) {
        const matcher = compileGraphitePattern(query);
        registration = { kind: 'whole', matcher, entry };
        this.whole.push({ matcher, entry });
      } else {
        // Compiled before anything changes, so a malformed glob leaves the matcher as it was.
        const compiled = segments.map((segment) => (WILDCARD.test(segment) && segment !== '*' ? compileGraphitePattern(segment) : null));
        let node = this.root;
        segments.forEach((segment, k) => {
          node = childFor(node, segment, compiled[k] ?? null);
        });
        node.entries.push(entry);
        registration = { kind: 'trie', segments, entry };
      }
      this.globCount += 1;
      this.cache.clear();
    }
    const list = this.registrations.get(subscriber);
    if (list) list.push(registration);
    else this.registrations.set(subscriber, [registration]);
  }

  /** Removes every subscription of the subscriber. */
  remove(subscriber: T): void {
    const list = this.registrations.get(subscriber);
    if (!list) return;
    this.version += 1;
    this.registrations.delete(subscriber);
    for (const registration of list) {
      if (registration.kind === 'plain') {
        const entries = this.plain.get(registration.path)!.filter((entry) => entry !== registration.entry);
        if (entries.length === 0) this.plain.delete(registration.path);
        else this.plain.set(registration.path, entries);
        this.answerPlain(registration.path);
        continue;
      }
      if (registration.kind === 'whole') {
        this.whole.splice(this.whole.findIndex((item) => item.entry === registration.entry), 1);
      } else {
        removeFromTrie(this.root, registration.segments, registration.entry);
      }
      this.globCount -= 1;
      this.cache.clear();
    }
  }

  /** The subscribers that read `path`, each once (a frozen array; the same one while nothing is added or removed). */
  match(path: string): readonly T[] {
    if (this.globCount === 0) return this.plainMatch(path);
    const cached = this.cache.get(path);
    if (cached !== undefined) return cached;
    const decided = this.decide(path);
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(ownCopy(path), decided);
    return decided;
  }

  /**
   * match() without its cache, for a caller that keeps the answers itself (by path id, with `version`): a plain
   * path's one lookup, or the trie's decision.
   */
  decideUncached(path: string): readonly T[] {
    return this.globCount === 0 ? this.plainMatch(path) : this.decide(path);
  }

  /** Subscribers, plain and glob expressions, and path decisions cached. */
  stats(): { subscribers: number; plainPaths: number; globs: number; cachedPaths: number } {
    return { subscribers: this.registrations.size, plainPaths: this.plain.size, globs: this.globCount, cachedPaths: this.cache.size };
  }

  private plainMatch(path: string): readonly T[] {
    return this.plainAnswers.get(path) ?? EMPTY;
  }

  private answerPlain(path: string): void {
    const answer = subscribersOf(this.plain.get(path) ?? [], path);
    if (answer.length === 0) this.plainAnswers.delete(path);
    else this.plainAnswers.set(path, answer);
    this.cache.delete(path);
  }

  private decide(path: string): readonly T[] {
    const found: Entry<T>[] = [...(this.plain.get(path) ?? [])];
    let level: TrieNode<T>[] = [this.root];
    const segments = path.split('.');
    for (let k = 0; k < segments.length && level.length > 0; k += 1) {
      const segment = segments[k]!;
      const next: TrieNode<T>[] = [];
      for (const node of level) {
        const literal = node.literal?.get(segment);
        if (literal) next.push(literal);
        if (node.star) next.push(node.star);
        if (node.globs) for (const { matcher, node: child } of node.globs.values()) if (matcher.test(segment)) next.push(child);
      }
      level = next;
    }
    for (const node of level) found.push(...node.entries);
    for (const { matcher, entry } of this.whole) if (matcher.test(path)) found.push(entry);
    return subscribersOf(found, path);
  }
}

/** The subscribers of the entries that may see `path` (their prefixes), each once, frozen. */
function subscribersOf<T>(entries: readonly Entry<T>[], path: string): readonly T[] {
  if (entries.length === 0) return EMPTY;
  const seen = new Set<T>();
  for (const { subscriber, prefixes } of entries) {
    if (isInsidePrefixes(path, prefixes)) seen.add(subscriber);
  }
  return seen.size === 0 ? EMPTY : Object.freeze([...seen]);
}

/**
 * A pattern's path nodes, or null when a brace or class holds a dot (`{a.b,c}`), which no single node can hold.
 * A glob never matches a dot otherwise (glob.ts), so a path matches the pattern exactly when it has as many nodes
 * and each node matches its own.
 */
function nodesOf(pattern: string): string[] | null {
  let depth = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '[') {
      // A class as glob.ts reads it: "!" or "^" negates, a "]" first is a member.
      let j = i + 1;
      if (pattern[j] === '!' || pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern[j] === '.') return null;
        j += 1;
      }
      i = j;
    } else if (ch === '{') depth += 1;
    else if (ch === '}') depth -= 1;
    else if (ch === '.' && depth > 0) return null;
  }
  return pattern.split('.');
}

function childFor<T>(node: TrieNode<T>, segment: string, matcher: GraphiteMatcher | null): TrieNode<T> {
  if (segment === '*') return (node.star ??= new TrieNode<T>());
  if (matcher === null) {
    node.literal ??= new Map();
    let child = node.literal.get(segment);
    if (!child) node.literal.set(segment, (child = new TrieNode<T>()));
    return child;
  }
  node.globs ??= new Map();
  let glob = node.globs.get(segment);
  if (!glob) node.globs.set(segment, (glob = { matcher, node: new TrieNode<T>() }));
  return glob.node;
}

function removeFromTrie<T>(root: TrieNode<T>, segments: string[], entry: Entry<T>): void {
  const chain: { parent: TrieNode<T>; segment: string; node: TrieNode<T> }[] = [];
  let node = root;
  for (const segment of segments) {
    const child = segment === '*' ? node.star : (node.literal?.get(segment) ?? node.globs?.get(segment)?.node);
    if (!child) return;
    chain.push({ parent: node, segment, node: child });
    node = child;
  }
  node.entries = node.entries.filter((item) => item !== entry);
  // Empty nodes go, so that a removed pattern costs later paths nothing.
  for (let k = chain.length - 1; k >= 0; k -= 1) {
    const { parent, segment, node: child } = chain[k]!;
    if (!child.empty) break;
    if (segment === '*') parent.star = null;
    else if (parent.literal?.get(segment) === child) parent.literal.delete(segment);
    else parent.globs?.delete(segment);
  }
}
