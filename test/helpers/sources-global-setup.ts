import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { bundleCli } from '../../scripts/bundle-cli.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Beside src/ and at its depth, as dist/ is: the sources' `new URL('../../schemas/', import.meta.url)` still finds the repository's. */
const OUT = join(ROOT, '.test-build');
const SRC = join(ROOT, 'src') + '/';

/**
 * The test files' imports of src/ answered from the run's transpiled tree, loaded by node itself rather than by
 * vite's module runner. The runner compiles every module again in every worker (no compile cache) and compiled the
 * schemas with Ajv in each, because src/ has no precompiled validators: most of what a test file that starts a
 * server in its worker spent before its first test. The tree is the same code, transpiled by the same esbuild as
 * the runner's transform, and it is what the run's servers and CLIs run. Before the tree is built
 * (`npm run test:unit` alone, watch mode) the imports resolve to src/ as usual. A stack from src/ then names the
 * tree's file (.test-build/, laid out as src/).
 */
export const sourcesFromTestBuild = {
  name: 'alertform-sources-from-test-build',
  enforce: 'pre' as const,
  async resolveId(this: { resolve: (source: string, importer?: string, options?: object) => Promise<{ id: string } | null> }, source: string, importer: string | undefined, options: object) {
    const build = process.env.ALERTFORM_TEST_BUILD;
    if (!build || !importer || importer.includes('/.test-build/')) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved || !resolved.id.startsWith(SRC) || !resolved.id.endsWith('.ts')) return null;
    const out = join(build, relative(SRC, resolved.id)).replace(/\.ts$/, '.js');
    return existsSync(out) ? out : null;
  },
};

/**
 * Global setup of the projects that spawn servers and CLIs from the sources: src/ transpiled once per state of the
 * sources (esbuild, as tsx does it file by file, with the same tsconfig) into .test-build/, which the children then
 * run with plain node (source-entry.ts). In watch mode nothing is built: the children keep running the sources
 * through tsx, so an edit during the session is never stale.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (project.vitest.config.watch) return;
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort();
  const hash = createHash('sha256');
  // The schemas too: the tree's compiled validators are made from them.
  const schemas = readdirSync(join(ROOT, 'schemas')).filter((name) => name.endsWith('.json')).sort().map((name) => `../schemas/${name}`);
  for (const name of [...files, ...schemas, '../tsconfig.json']) hash.update(name).update('\0').update(readFileSync(join(ROOT, 'src', name))).update('\0');
  // This file and the bundler's script too: a change to how the tree is built rebuilds it.
  hash.update(readFileSync(fileURLToPath(import.meta.url))).update(readFileSync(join(ROOT, 'scripts/bundle-cli.mjs')));
  const digest = hash.digest('hex');
  const marker = join(OUT, '.sources-hash');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== digest) {
    // Built beside and swapped in, so that a run never sees half a tree.
    const next = `${OUT}.${process.pid}`;
    // File by file: the workers import them one by one. (As one bundle with every file an entry, split into shared
    // chunks, a worker's import of the server took only 5% less CPU: the chunks were as many as the files.)
    await build({
      entryPoints: files.map((name) => join(ROOT, 'src', name)),
      outdir: next,
      outbase: join(ROOT, 'src'),
      format: 'esm',
      platform: 'node',
      target: 'node22',
      tsconfig: join(ROOT, 'tsconfig.json'),
      logLevel: 'error',
    });
    // The schema validators compiled ahead of time, as the package's build does (scripts/compile-schemas.mjs): a
    // start then loads them instead of compiling the schemas with Ajv (100-300 ms of CPU; the same verdicts and
    // errors, test/unit/model/compiled-validators.test.ts).
    // In a plain node: loaded here, vite's module runner would take the schemas module's missing-file probe for an error.
    const compile = `import { writeFileSync } from 'node:fs';
      import { standaloneValidatorsSource } from ${JSON.stringify(pathToFileURL(join(next, 'model/compile-schemas.js')).href)};
      writeFileSync(${JSON.stringify(join(next, 'model/compiled-validators.js'))}, standaloneValidatorsSource());`;
    await run(process.execPath, ['--input-type=module', '--eval', compile], { cwd: ROOT });
    // The CLI, which the tests start hundreds of times (servers and commands), bundled in place of its module as the
    // package's build bundles it, with the packages in it (koa's and the others' CommonJS files were half of a
    // start's module loading): a start loads a handful of files instead of hundreds.
    await bundleCli({ root: ROOT, tree: next });
    await writeFile(join(next, '.sources-hash'), digest);
    // Swapped in by two renames, never a moment without a tree: a run already going (another terminal) keeps
    // starting children, which then run the new sources, as they would through tsx. The tree it replaces stays
    // until the next rebuild, for modules such a run's children still load lazily.
    for (const name of readdirSync(ROOT).filter((entry) => entry.startsWith('.test-build.old.'))) await rm(join(ROOT, name), { recursive: true, force: true });
    if (existsSync(OUT)) await rename(OUT, `${OUT}.old.${process.pid}`);
    await rename(next, OUT);
  }
  // Read by source-entry.ts in the workers, which inherit this process's environment.
  process.env.ALERTFORM_TEST_BUILD = OUT;
}
