import { Redactor } from '../redact/index.js';

/** Replaces every known secret in a text; secrets learnt later (a key typed in the TUI) are added with `add`. */
export interface Masker {
  (text: string): string;
  add(secret: string | undefined): void;
}

/**
 * A masker for these secrets, on the one redaction module: secrets (and URL user-info) show as `(sensitive)`, like
 * in every other output of alertform.
 */
export function createMasker(secrets: readonly (string | undefined)[]): Masker {
  const redactor = new Redactor(secrets);
  const mask = ((text: string) => redactor.redact(text)) as Masker;
  mask.add = (secret) => redactor.add(secret);
  return mask;
}
