import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Everything a tag would publish, short of publishing: the workflow's steps, the image's build context, the
// Action's tag layout. (The tarball itself is packed, checksummed and installed in test/integration/package/.)

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const workflow = parse(read('.github/workflows/release.yml'));
const pkg = JSON.parse(read('package.json')) as { version: string; repository: { url: string } };
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

type Step = { name?: string; run?: string; uses?: string; with?: Record<string, string>; env?: Record<string, string> };
const steps = (job: string): Step[] => workflow.jobs[job].steps;
const runs = (job: string) => steps(job).map((s) => s.run ?? '').join('\n');

/** The files `docker build -f deploy/Dockerfile .` sends: the checkout, less deploy/Dockerfile.dockerignore. */
function buildContext(): Set<string> {
  const patterns = read('deploy/Dockerfile.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const ignored = picomatch(patterns, { dot: true });
  const underIgnored = (path: string) => path.split('/').some((_, i, parts) => ignored(parts.slice(0, i + 1).join('/')));
  return new Set(tracked.filter((path) => !underIgnored(path)));
}

describe('the release workflow', () => {
  it('runs on version tags and refuses a tag that is not package.json version', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } });
    expect(runs('verify')).toContain('"v$version" != "$GITHUB_REF_NAME"');
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('publishes to npm with provenance the very tarball it checksums, from a repository npm can verify', () => {
    expect(workflow.jobs.npm.permissions['id-token']).toBe('write');
    expect(runs('npm')).toMatch(/npm publish release\/alertform-\$\{\{ needs\.verify\.outputs\.version \}\}\.tgz --provenance/);
    expect(steps('npm').find((s) => s.name === 'Checksums')!.run).toContain('sha256sum alertform-*.tgz > SHA256SUMS');
    expect(runs('npm')).toContain('release/SHA256SUMS');
    // Provenance is refused unless package.json names the repository the workflow runs in.
    expect(pkg.repository.url).toBe('git+https://github.com/alertform/alertform.git');
  });

  it('checks the Action bundle is what the tag builds, and moves the major tag to the release', () => {
    expect(runs('verify')).toContain('npm run build:action');
    expect(runs('verify')).toContain('git diff --exit-code --stat -- action/dist/');
    expect(runs('action')).toContain('git tag --force "$major" "$GITHUB_SHA"');
  });

  it('builds the image from deploy/Dockerfile with the repository root as context', () => {
    const build = steps('image').find((s) => s.uses?.startsWith('docker/build-push-action'))!;
    expect(build.with).toMatchObject({ context: '.', file: 'deploy/Dockerfile' });
    expect(build.with!.tags).toContain('ghcr.io/${{ github.repository }}:${{ needs.verify.outputs.version }}');
  });
});

describe('the container image', () => {
  const dockerfile = read('deploy/Dockerfile');

  it('pins its base image by digest, in every stage', () => {
    const arg = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];
    expect(arg).toMatch(/^node:24-bookworm-slim@sha256:[0-9a-f]{64}$/);
    const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
  });

  it('finds every file it COPYs and RUNs in its build context', () => {
    const context = buildContext();
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap((m) => m[1]!.split(/\s+/).slice(0, -1));
    expect(copied).toEqual(['package.json', 'package-lock.json', '.']);
    for (const file of copied.filter((f) => f !== '.')) expect(context.has(file), file).toBe(true);
    // `COPY . .` then runs these: they must be in the context, and executable.
    for (const script of ['deploy/install.sh', 'deploy/start.sh', 'deploy/healthcheck.sh', 'bin/alertform']) {
      expect(context.has(script), script).toBe(true);
      expect(statSync(join(ROOT, script)).mode & 0o111, script).not.toBe(0);
    }
    // What npm pack needs to build dist/ inside the image.
    for (const file of ['tsconfig.json', 'tsconfig.build.json', 'src/cli/main.ts', 'scripts/clean-dist.mjs']) expect(context.has(file), file).toBe(true);
    // And nothing it must not carry.
    expect([...context].filter((path) => /(^|\/)(node_modules|\.git)\//.test(path) || path.endsWith('.db'))).toEqual([]);
  });
});

describe("the Action's tag layout", () => {
  it('has action.yml at the root running a committed bundle', () => {
    const action = parse(read('action.yml'));
    expect(action.runs.main).toBe('action/dist/index.mjs');
    expect(tracked).toContain('action.yml');
    expect(tracked).toContain(action.runs.main);
  });

  it('is named in the examples by its real path, alertform/alertform', () => {
    for (const file of ['examples/workflows/alertform.yml', 'README.md', 'docs/action.md']) {
      for (const match of read(file).matchAll(/uses: ([\w./@-]*alertform[\w./@-]*)/g)) expect(match[1], file).toMatch(/^alertform\/alertform@v\d+$/);
    }
  });
});
