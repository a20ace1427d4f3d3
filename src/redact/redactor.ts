import { SENSITIVE } from './placeholder.js';

/** Values shorter than this are not replaced: masking `on` or `1` would garble ordinary words. */
export const MIN_SECRET_LENGTH = 4;

/** A URL safe to print: user-info (which may carry the key) replaced by the placeholder. */
export function redactUrl(text: string): string {
  return text.replace(/(https?:\/\/)[^/@\s]+@/gi, `$1${SENSITIVE}@`);
}

/** The credentials a URL carries as user-info (the key as user name, a password), to register as secrets. */
export function secretsInUrl(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    return [parsed.username, parsed.password].filter((part) => part !== '').map((part) => decodeURIComponent(part));
  } catch {
    return [];
  }
}

/** A node of the secrets' trie: one child per next UTF-16 unit; `end` marks where a whole secret ends. */
interface TrieNode {
  next: Map<number, TrieNode> | undefined;
  end: boolean;
}

/**
 * Replaces known secret values, and URL user-info, in any text that leaves the process. Values learnt later (a key
 * typed in the TUI, the values a plan carries) are added with `add`; `onAdd` lets the Action tell the runner too.
 * The secrets form a trie walked once over the text, longest match first: a plan whose 3,000 alert names are
 * secrets (and share their first characters) costs one pass, not 3,000 (npm run bench:render).
 */
export class Redactor {
  private readonly root: TrieNode = { next: undefined, end: false };
  private count = 0;

  constructor(
    values: Iterable<string | undefined> = [],
    private readonly onAdd?: (value: string) => void,
  ) {
    for (const value of values) this.add(value);
  }

  /** Registers a secret value; empty and very short ones are ignored. */
  add(value: string | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    let node = this.root;
    for (let k = 0; k < value.length; k += 1) {
      const code = value.charCodeAt(k);
      node.next ??= new Map();
      let child = node.next.get(code);
      if (!child) node.next.set(code, (child = { next: undefined, end: false }));
      node = child;
    }
    if (node.end) return;
    node.end = true;
    this.count += 1;
    this.onAdd?.(value);
  }

  /** The text with every known secret and any URL user-info replaced by `(sensitive)`. */
  redact(text: string): string {
    return redactUrl(this.count === 0 ? text : this.replaceSecrets(text));
  }

  private replaceSecrets(text: string): string {
    const first = this.root.next!;
    const parts: string[] = [];
    let kept = 0;
    for (let i = 0; i < text.length; ) {
      let node = first.get(text.charCodeAt(i));
      let end = -1;
      for (let j = i + 1; node; j += 1) {
        if (node.end) end = j;
        node = j < text.length ? node.next?.get(text.charCodeAt(j)) : undefined;
      }
      if (end === -1) {
        i += 1;
        continue;
      }
      parts.push(text.slice(kept, i), SENSITIVE);
      kept = i = end;
    }
    if (kept === 0) return text;
    parts.push(text.slice(kept));
    return parts.join('');
  }

  /** A copy of JSON-like data with every string (object keys included) redacted. */
  redactDeep<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.redact(k)] = this.walk(v);
      return out;
    }
    return value;
  }
}
