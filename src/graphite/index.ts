export * from './types.js';
export * from './glob.js';
export * from './render-client.js';
