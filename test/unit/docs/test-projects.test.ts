import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import config from '../../../vitest.config.js';

// The test projects (vitest.config.ts): every test file runs in exactly one, and the unit project stays the fast loop
// while coding: no file in it reaches, through its own imports or the test helpers', a module that starts processes
// or talks to a database server. (The unit project's setup file, test/unit/no-child-process.ts, also stops a child
// process started through the sources.)

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const UNIT_PROJECT = 'unit';
/** Packages that start processes or reach a database server; helpers that use them are as good as them. */
const FORBIDDEN_IN_UNIT = new Set(['child_process', 'node:child_process', 'pg', 'simple-git', 'playwright-core']);

const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[] } }[];

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const testFiles = filesUnder('test').filter((file) => file.endsWith('.test.ts'));
const projectsOf = (file: string) => projects.filter((project) => picomatch(project.test.include)(file)).map((project) => project.test.name);

/** The modules a file loads when it runs (type-only imports load nothing), as written. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const statements = text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm);
  const dynamic = text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g);
  return [...statements, ...dynamic].map((match) => match[1]!);
}

/** Each forbidden package `file` reaches through modules under test/, with the chain of files that leads to it. */
function forbiddenReached(file: string, chain: string[] = [], seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  return runtimeImports(file).flatMap((specifier) => {
    if (!specifier.startsWith('.')) {
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      return FORBIDDEN_IN_UNIT.has(name) ? [[...chain, file, specifier].join(' -> ')] : [];
    }
    const target = relative(ROOT, resolve(dirname(join(ROOT, file)), specifier.replace(/\.js$/, '.ts')));
    // The sources are the code under test; what they start at run time is the setup file's to stop.
    if (!target.startsWith('test/') || !existsSync(join(ROOT, target))) return [];
    return forbiddenReached(target, [...chain, file], seen);
  });
}

describe('the test projects', () => {
  it('run every test file in exactly one project', () => {
    const misplaced = testFiles.filter((file) => projectsOf(file).length !== 1).map((file) => `${file}: ${projectsOf(file).join(', ') || 'no project'}`);
    expect(misplaced).toEqual([]);
  });

  it('keep the unit files clear of child processes, database clients and browsers (move such a file to test/integration/ or test/store/)', () => {
    const unitFiles = testFiles.filter((file) => projectsOf(file).includes(UNIT_PROJECT));
    expect(unitFiles.length).toBeGreaterThan(50);
    expect(unitFiles.flatMap((file) => forbiddenReached(file))).toEqual([]);
  });

  it('would catch a unit file that reaches a process through a helper', () => {
    // The check itself, on the helpers: run-cli spawns the CLI, store-backends starts PostgreSQL through postgres.ts.
    expect(forbiddenReached('test/helpers/run-cli.ts')).toEqual(['test/helpers/run-cli.ts -> node:child_process']);
    expect(forbiddenReached('test/helpers/store-backends.ts')).toContain('test/helpers/store-backends.ts -> test/helpers/postgres.ts -> node:child_process');
    expect(forbiddenReached('test/helpers/alert-write.ts')).toEqual([]);
  });
});
