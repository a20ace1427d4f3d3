/** Bundles `root`/src/cli/main.ts into `tree`/cli/bundle/ and points `tree`/cli/main.js at it (bundle-cli.mjs). */
export function bundleCli(where: { root: string; tree: string }): Promise<void>;
