export * from './types.js';
export * from '../model/graphite-target/glob.js';
export * from './render-client.js';
export * from '../model/graphite-target/target.js';
export * from '../model/graphite-target/check-target.js';
