import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandName } from '../../../src/cli/invocation.js';
import { DOCS_URL, docsUrl } from '../../../src/model/docs-url.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('what the CLI tells a user of the package', () => {
  it('links docs pages to the repository (the package ships no docs/), and each page linked exists', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[]; homepage: string };
    expect(pkg.files).not.toContain('docs');
    expect(DOCS_URL.startsWith(pkg.homepage.replace(/#readme$/, ''))).toBe(true);
    const sources = ['src/cli/commands', 'src/cli/actions', 'src/server/validation'].flatMap((folder) =>
      readdirSync(join(ROOT, folder)).map((file) => join(folder, file)),
    );
    const bare: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      // A docs path in help or answer text (comments excluded), not behind the repository URL.
      text.split('\n').forEach((line, i) => {
        if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
        if (/(?<![/\w])docs\/[a-z-]+\.md/.test(line)) bare.push(`${file}:${i + 1}: ${line.trim()}`);
      });
      for (const [, page] of text.matchAll(/docsUrl\('([a-z-]+\.md)'\)/g)) expect(readdirSync(join(ROOT, 'docs')), file).toContain(page);
    }
    expect(bare).toEqual([]);
    expect(docsUrl('server.md')).toBe('https://github.com/alertform/alertform/blob/main/docs/server.md');
  });

  it('tells a local install to run npx alertform, a global one alertform', () => {
    const node = `${sep}usr${sep}local${sep}bin${sep}node`;
    const local = [sep, 'home', 'ann', 'alerts', 'node_modules', 'alertform', 'bin', 'alertform'].join(sep).slice(1);
    const global = [sep, 'usr', 'local', 'lib', 'node_modules', 'alertform', 'bin', 'alertform'].join(sep).slice(1);
    const npxCache = [sep, 'home', 'ann', '.npm', '_npx', 'abc', 'node_modules', 'alertform', 'bin', 'alertform'].join(sep).slice(1);
    expect(commandName(local, node)).toBe('npx alertform');
    expect(commandName(npxCache, node)).toBe('npx alertform');
    expect(commandName(global, node)).toBe('alertform');
    expect(commandName(join(ROOT, 'bin', 'alertform'), node)).toBe('alertform');
    expect(commandName('', node)).toBe('alertform');
  });
});
