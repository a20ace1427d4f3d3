export { applyPlan, registryFromState, type ApplyEvent, type ApplyOptions, type ApplyResult } from './run.js';
export { renderProgressLine, renderApplySummary, applyResultJson } from './progress.js';
