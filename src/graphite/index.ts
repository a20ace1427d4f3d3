export * from './types.js';
export * from './glob.js';
export * from './render-client.js';
export * from './target.js';
export * from './check-target.js';
