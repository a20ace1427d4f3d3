import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs travel with the repository (and README.md with the package): every file they point to must be in it.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('the documentation', () => {
  it.each(pages)('%s links only to files inside the repository that exist', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const problems: string[] = [];
    // Markdown links, and paths in code spans that climb out of the page's directory.
    const targets = [
      ...[...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t)),
      ...[...text.matchAll(/`(\.\.\/[^`\s]+)`/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      const absolute = resolve(dirname(join(ROOT, page)), target);
      if (relative(ROOT, absolute).startsWith('..')) problems.push(`${target}: outside the repository`);
      else if (!existsSync(absolute)) problems.push(`${target}: no such file`);
    }
    expect(problems).toEqual([]);
  });
});
