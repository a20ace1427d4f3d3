// Bundles the GitHub Action (src/action/main.ts) into one committed file, action/dist/index.mjs, because users run
// the Action from a tag without installing anything. Deterministic: the same sources give the same bytes (CI
// rebuilds and diffs). schemas/ is read at run time from the checked-out action, two levels above the bundle.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// `--outfile FILE` builds elsewhere (the freshness test compares that build with the committed one).
const at = process.argv.indexOf('--outfile');
const outfile = at > 0 ? process.argv[at + 1] : 'action/dist/index.mjs';

await build({
  absWorkingDir: root,
  entryPoints: ['src/action/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // node_modules of a worktree may be a symlink: keep its link path so paths in the bundle do not depend on it.
  preserveSymlinks: true,
  minify: true,
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'warning',
  // CommonJS dependencies (@actions/core, simple-git) require Node built-ins; ESM has no require of its own.
  banner: {
    js: "import { createRequire as __alertformCreateRequire } from 'node:module'; const require = __alertformCreateRequire(import.meta.url);",
  },
});
