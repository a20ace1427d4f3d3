/** The outcome of `${VAR}` interpolation of one string. */
export interface Interpolated {
  value: string;
  /** True when any part of the value came from the environment: it is then shown as `(sensitive)`. */
  sensitive: boolean;
  /** Variables that were unset and had no default. */
  missing: string[];
}

/** `$${` (a literal `${`, written so by `pull`), or a reference `${VAR}` / `${VAR:-default}`. */
const PATTERN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The names of the variables a text interpolates (`${VAR}`, `${VAR:-default}`), in order, repeats kept. */
export function listVariableNames(text: string): string[] {
  return [...text.matchAll(PATTERN)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));
}

/** A text that interpolates to itself: every `${` written `$${` (how `pull` writes what the server holds). */
export function escapeInterpolation(text: string): string {
  return text.replaceAll('${', () => '$${'); // (a function: in a replacement string, `$$` means one `$`)
}

/**
 * Replaces `${VAR}` and `${VAR:-default}` from `env`, and `$${` with a literal `${`. A value taken from the environment marks the whole string
 * sensitive; a default written in the file does not (it is already in git for anyone to read).
 */
export function interpolateString(source: string, env: Readonly<Record<string, string | undefined>>): Interpolated {
  let sensitive = false;
  const missing: string[] = [];
  const value = source.replace(PATTERN, (_match, name: string | undefined, fallback: string | undefined) => {
    if (name === undefined) return '${';
    const fromEnv = env[name];
    if (fromEnv !== undefined && fromEnv !== '') {
      sensitive = true;
      return fromEnv;
    }
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return '';
  });
  return { value, sensitive, missing };
}
