import type { ProjectConfig } from '../definitions/project.js';

// A module of its own so that `validate` without a Graphite learns so without loading the backtest.
/** Where the Graphite to backtest against comes from: a flag or input, else ALERTFORM_GRAPHITE_URL, else alertform.yaml. */
export function resolveGraphiteUrl(given: string | undefined, config: Pick<ProjectConfig, 'graphite'> | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const url = given || env.ALERTFORM_GRAPHITE_URL || config?.graphite;
  return url ? url : undefined;
}
