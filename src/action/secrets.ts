import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@actions/core';
import { Redactor } from '../redact/index.js';
import { listVariableNames } from '../definitions/interpolate.js';
import { isSkippedDir, YAML_FILE } from '../definitions/file-rules.js';

/**
 * A last line of defence under the renderers' own masking: every text the Action publishes (comment, summary,
 * outputs, failure messages) goes through redact(), which replaces the API key, the GitHub token and the values of
 * the environment variables the definitions interpolate by `(sensitive)`. Each value is also registered with the
 * runner (core.setSecret), which masks it in the job log.
 */
export class SecretRedactor extends Redactor {
  constructor() {
    super([], (value) => core.setSecret(value));
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
      const path = join(at, entry.name);
      // The directories definitions skip (file-rules.ts); every YAML file: alertform.yaml and rule tests may use ${VAR} too.
      if (entry.isDirectory()) {
        if (!isSkippedDir(entry.name)) walk(path, depth + 1);
      } else if (!entry.name.startsWith('.') && YAML_FILE.test(entry.name)) {
        for (const name of listVariableNames(readFileSync(path, 'utf8'))) names.add(name);
      }
    }
  };
  walk(dir, 0);
  return [...names];
}
