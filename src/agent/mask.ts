/** What a secret becomes in any output. */
export const MASK = '<API_KEY>';

/** Replaces every known secret in a text; secrets learnt later (a key typed in the TUI) are added with `add`. */
export interface Masker {
  (text: string): string;
  add(secret: string | undefined): void;
}

/** A masker for these secrets. Empty ones are ignored; longer ones are replaced first. */
export function createMasker(secrets: readonly (string | undefined)[]): Masker {
  const present: string[] = [];
  const mask = ((text: string) => present.reduce((masked, secret) => masked.split(secret).join(MASK), text)) as Masker;
  mask.add = (secret) => {
    if (!secret || present.includes(secret)) return;
    present.push(secret);
    present.sort((a, b) => b.length - a.length);
  };
  for (const secret of secrets) mask.add(secret);
  return mask;
}
