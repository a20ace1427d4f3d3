import type { Reconciler } from './port.js';

/**
 * The real reconciler behind the Action's port: src/spec loads and validates, src/plan computes, renders and
 * hashes, src/apply applies. Thin on purpose: no planning happens here.
 */
export function createReconciler(): Reconciler {
  return {
    async plan() {
      throw new Error('the reconciler (src/plan) is not available in this build yet');
    },
  };
}
