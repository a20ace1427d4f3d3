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

/**
 * Replaces known secret values, and URL user-info, in any text that leaves the process. Values learnt later (a key
 * typed in the TUI, the values a plan carries) are added with `add`; `onAdd` lets the Action tell the runner too.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  /** Longest first, so a secret containing another is replaced whole; rebuilt when a value is added. */
  private ordered: string[] = [];

  constructor(
    values: Iterable<string | undefined> = [],
    private readonly onAdd?: (value: string) => void,
  ) {
    for (const value of values) this.add(value);
  }

  /** Registers a secret value; empty and very short ones are ignored. */
  add(value: string | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH || this.secrets.has(value)) return;
    this.secrets.add(value);
    this.ordered = [...this.secrets].sort((a, b) => b.length - a.length);
    this.onAdd?.(value);
  }

  /** The text with every known secret and any URL user-info replaced by `(sensitive)`. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.ordered) if (out.includes(secret)) out = out.split(secret).join(SENSITIVE);
    return redactUrl(out);
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
