/**
 * What every output shows in place of a secret: plan renderings, apply progress and errors, the Action's comment,
 * summary, outputs and logs, the agent's output, client errors. One placeholder, so a reader learns it once.
 */
export const SENSITIVE = '(sensitive)';
