/** What a secret becomes in any output. */
export const MASK = '<API_KEY>';

/** A function that replaces every occurrence of the secrets in a text. Empty secrets are ignored. */
export function createMasker(secrets: readonly (string | undefined)[]): (text: string) => string {
  const present = [...new Set(secrets.filter((secret): secret is string => !!secret))].sort((a, b) => b.length - a.length);
  return (text) => present.reduce((masked, secret) => masked.split(secret).join(MASK), text);
}
