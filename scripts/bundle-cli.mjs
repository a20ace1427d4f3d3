// Part of `npm run build:dist`, after tsc and compile-schemas: the CLI as users start it. src/cli/main.ts and the
// packages it uses are bundled by esbuild into dist/cli/bundle/, split into chunks at the CLI's lazy imports so that
// a command still loads only what it uses, and dist/cli/main.js (tsc's two-line entry) becomes an import of it. A
// few files instead of a module per file and per package: `alertform serve` starts on about a quarter less CPU
// (`npm run bench:cli`). The rest of dist/ stays tsc's tree, module by module: the bundle's modules find schemas/,
// console/, better-sqlite3 and the precompiled validators from their own files' places in it, and users may import
// its modules. The test run bundles its own transpiled tree the same way (test/helpers/sources-global-setup.ts).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** What the bundle leaves to node_modules: packages that load native code or files beside their own. */
const EXTERNAL = ['better-sqlite3', 'pino', 'pino-*', 'thread-stream', 'pg-native', '@resvg/*', 'esbuild'];

/** `import.meta.url` as code, not inside a string (compile-schemas.ts writes it into the validators' source). */
const IMPORT_META_URL = /(?<!['"])\bimport\.meta\.url\b(?!['"])/g;

/**
 * Bundles `root`/src/cli/main.ts into `tree`/cli/bundle/ and points `tree`/cli/main.js at it, where `tree` is src/
 * built module by module (dist/, or the tests' transpiled copy). Each source module's `import.meta.url` in the
 * bundle is the URL of its own file in `tree`, as it would be unbundled: worked out at run time from the bundle's
 * file (every file of the bundle is in cli/bundle/), so that the tree can be installed anywhere.
 * @param {{ root: string, tree: string }} where
 */
export async function bundleCli({ root, tree }) {
  const src = join(root, 'src');
  const bundleDir = join(tree, 'cli/bundle');
  // Chunks of an earlier build (their names are hashes of their contents) and the source map of the entry the
  // bundle replaces would stay beside the new ones.
  await rm(bundleDir, { recursive: true, force: true });
  await rm(join(tree, 'cli/main.js.map'), { force: true });
  await build({
    entryPoints: [join(src, 'cli/main.ts')],
    bundle: true,
    splitting: true,
    external: EXTERNAL,
    // A bundled CommonJS package's require() of Node's modules goes through esbuild's shim, which needs a require in
    // scope (esbuild renames a module's own top-level `require`, so this one never clashes).
    banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
    outdir: bundleDir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
    plugins: [
      {
        name: 'own-module-urls',
        setup(bundler) {
          bundler.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
            const own = join(tree, relative(src, args.path)).replace(/\.ts$/, '.js');
            const fromBundle = relative(bundleDir, own).split(sep).join(posix.sep);
            const url = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
            return { contents: (await readFile(args.path, 'utf8')).replace(IMPORT_META_URL, url), loader: 'ts' };
          });
        },
      },
    ],
  });
  await writeFile(join(tree, 'cli/main.js'), "// The CLI's entry, bundled by scripts/bundle-cli.mjs.\nimport './bundle/main.js';\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  await bundleCli({ root, tree: join(root, 'dist') });
}
