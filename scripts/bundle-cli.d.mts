/** Bundles `root`/src/cli/main.ts into `tree`/cli/main.js and `tree`/cli/bundle/ (scripts/bundle-cli.mjs). */
export function bundleCli(where: { root: string; tree: string }): Promise<void>;
