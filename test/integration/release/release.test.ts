import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    expect(runs('verify')).toContain('node scripts/release-tags.mjs "$GITHUB_REF_NAME"');
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    const wrong = runStep('verify', 'version', { GITHUB_REF_NAME: 'v99.0.0' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain(`tag v99.0.0 is not v${pkg.version} (package.json): bump the version first`);
  });

  it('publishes to npm with provenance the very tarball it checksums, from a repository npm can verify', () => {
    expect(workflow.jobs.npm.permissions['id-token']).toBe('write');
    expect(runs('npm')).toMatch(/npm publish release\/alertform-\$\{\{ needs\.verify\.outputs\.version \}\}\.tgz --provenance/);
    expect(steps('npm').find((s) => s.name === 'Checksums')!.run).toContain('sha256sum alertform-*.tgz > SHA256SUMS');
    expect(runs('npm')).toContain('release/SHA256SUMS');
    // Provenance is refused unless package.json names the repository the workflow runs in.
    expect(pkg.repository.url).toBe('git+https://github.com/alertform/alertform.git');
  });

  it('checks the Action bundle is what the tag builds', () => {
    expect(runs('verify')).toContain('npm run build:action');
    expect(runs('verify')).toContain('git diff --exit-code --stat -- action/dist/');
  });

  it('builds the image from deploy/Dockerfile with the repository root as context', () => {
    const build = steps('image').find((s) => s.uses?.startsWith('docker/build-push-action'))!;
    expect(build.with).toMatchObject({ context: '.', file: 'deploy/Dockerfile' });
    expect(build.with!.tags).toContain('ghcr.io/${{ github.repository }}:${{ needs.verify.outputs.version }}');
  });
});

/** Runs one `run:` step of the workflow with bash, as the runner does, in the checkout; its GITHUB_OUTPUT lines. */
function runStep(job: string, id: string, env: Record<string, string>, cwd = ROOT) {
  const step = steps(job).find((s) => (s as { id?: string }).id === id || s.name?.startsWith(id))!;
  const temp = mkdtempSync(join(tmpdir(), 'alertform-release-step-'));
  try {
    const output = join(temp, 'output');
    writeFileSync(output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(value, env)]));
    const result = spawnSync('bash', ['-e', '-c', step.run!], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...env, ...stepEnv, GITHUB_OUTPUT: output, RUNNER_TEMP: temp },
    });
    const outputs = Object.fromEntries(readFileSync(output, 'utf8').split('\n').filter(Boolean).map((line) => line.split(/=(.*)/s).slice(0, 2)));
    return { ...result, outputs };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** `${{ needs.verify.outputs.X }}` in a step's env, from the values given as NEEDS_VERIFY_X. */
const substitute = (value: string, env: Record<string, string>) =>
  value.replace(/\$\{\{ needs\.verify\.outputs\.(\w+) \}\}/g, (_, key: string) => env[`NEEDS_VERIFY_${key.toUpperCase()}`] ?? '');

describe('the tags of a release of the current version', () => {
  const tag = `v${pkg.version}`;
  const major = `v${pkg.version.split('.')[0]}`;
  const verified = runStep('verify', 'version', { GITHUB_REF_NAME: tag });

  it("are the verify step's outputs: the version, the tarball and the package's major as the Action's tag", () => {
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.outputs).toEqual({ version: pkg.version, tarball: `alertform-${pkg.version}.tgz`, major_tag: major });
    expect(workflow.jobs.verify.outputs).toMatchObject({ version: '${{ steps.version.outputs.version }}', major_tag: '${{ steps.version.outputs.major_tag }}' });
  });

  it('move the major tag to the release commit, in a real repository pushed to a real origin', () => {
    const dir = mkdtempSync(join(tmpdir(), 'alertform-release-tags-'));
    try {
      const git = (args: string[], cwd = join(dir, 'work')) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
      execFileSync('git', ['init', '-q', '--bare', join(dir, 'origin.git')]);
      execFileSync('git', ['init', '-q', join(dir, 'work')]);
      git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'one']);
      git(['remote', 'add', 'origin', join(dir, 'origin.git')]);
      const first = git(['rev-parse', 'HEAD']);
      git(['tag', major, first]);
      git(['push', '-q', 'origin', `refs/tags/${major}`]);
      git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'two']);
      const release = git(['rev-parse', 'HEAD']);
      const step = steps('action').find((s) => s.name?.startsWith('Move the major tag'))!;
      expect((step as { if?: string }).if).toBe("needs.verify.outputs.major_tag != ''");
      const moved = runStep('action', 'Move the major tag', { GITHUB_SHA: release, NEEDS_VERIFY_MAJOR_TAG: verified.outputs.major_tag! }, join(dir, 'work'));
      expect(moved.status, moved.stderr).toBe(0);
      expect(git(['rev-parse', `refs/tags/${major}`], join(dir, 'origin.git'))).toBe(release);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are the ones the README installs, the example workflow uses and init writes', async () => {
    const readme = read('README.md');
    expect(readme).toContain(`npm install https://github.com/alertform/alertform/releases/download/${tag}/${verified.outputs.tarball}`);
    expect(readme).toContain(`npm install git+https://github.com/alertform/alertform.git#${tag}`);
    expect(readme).toContain(`uses: alertform/alertform@${major}\``);
    expect(readme).not.toMatch(/npm install alertform(?!@)/);
    const { scaffoldFiles } = await import('../../../src/scaffold/init-repository.js');
    const written = (await scaffoldFiles(tmpdir())).find((file) => file.path === '.github/workflows/alertform.yml')!.text;
    for (const text of [read('examples/workflows/alertform.yml'), written, read('docs/action.md')]) {
      const uses = [...text.matchAll(/uses: alertform\/alertform@([\w.-]+)/g)].map((m) => m[1]);
      expect(uses.length).toBeGreaterThan(0);
      expect(new Set(uses)).toEqual(new Set([major]));
    }
  });

  it('refuse a version that is not semver, and move no major tag for a pre-release', async () => {
    // @ts-expect-error: a plain .mjs script, no types
    const { releaseTags } = await import('../../../scripts/release-tags.mjs');
    expect(releaseTags('v1.0.0-rc.1', '1.0.0-rc.1')).toEqual({ version: '1.0.0-rc.1', tarball: 'alertform-1.0.0-rc.1.tgz', major_tag: '' });
    expect(releaseTags('v2.3.4', '2.3.4').major_tag).toBe('v2');
    expect(() => releaseTags('v1.0', '1.0')).toThrow('is not X.Y.Z');
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

  it('says the server comes from the workflow, never from alertform.yaml, as the Action does', () => {
    const header = read('examples/workflows/alertform.yml').split('\nname:')[0]!;
    expect(header).toContain('never from alertform.yaml');
    expect(header).not.toMatch(/unless alertform\.yaml names the server/);
    expect(header).toContain('GitHub-hosted runner');
  });
});
