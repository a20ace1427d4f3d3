export * from './buckets.js';
export * from './criteria.js';
export * from './judge-alert.js';
export * from './transitions.js';
export * from './evaluation-store.js';
export * from './run-cycle.js';
export * from './evaluator.js';
