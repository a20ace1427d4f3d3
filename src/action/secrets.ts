import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@actions/core';

/**
 * A last line of defence under the renderers' own masking: every text the Action publishes (comment, summary,
 * outputs, failure messages) goes through redact(), which replaces the API key, the GitHub token and the values of
 * the environment variables the definitions interpolate.
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret and asks the runner to mask it in logs too. Short values would mask ordinary words. */
  add(value: string | undefined): void {
    if (!value || value.length < 4 || this.secrets.has(value)) return;
    this.secrets.add(value);
    core.setSecret(value);
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret containing another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('***');
    return out;
  }
}

/** Names of the `${VAR}` / `${VAR:-default}` variables used by the YAML files under dir. */
export function findInterpolatedVariables(dir: string): string[] {
  const names = new Set<string>();
  const walk = (at: string, depth: number) => {
    if (depth > 20) return;
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (/\.ya?ml$/.test(entry.name)) {
        for (const match of readFileSync(path, 'utf8').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(match[1]!);
      }
    }
  };
  walk(dir, 0);
  return [...names];
}
