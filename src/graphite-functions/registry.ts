import { ALIAS_FUNCTIONS } from './alias.js';
import { PERCENT_FUNCTIONS } from './as-percent.js';
import { COMBINE_FUNCTIONS } from './combine.js';
import { DERIVATIVE_FUNCTIONS } from './derivative.js';
import type { FunctionSpec } from './function-spec.js';
import { MOVING_FUNCTIONS } from './moving-window.js';
import { SUMMARIZE_FUNCTIONS } from './summarize.js';
import { TRANSFORM_FUNCTIONS } from './transform.js';

/** Every function evaluated locally, by the name a target calls it (graphite-web's short names included). */
export const LOCAL_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([
  ...COMBINE_FUNCTIONS,
  ...PERCENT_FUNCTIONS,
  ...TRANSFORM_FUNCTIONS,
  ...DERIVATIVE_FUNCTIONS,
  ...ALIAS_FUNCTIONS,
  ...MOVING_FUNCTIONS,
  ...SUMMARIZE_FUNCTIONS,
]);
