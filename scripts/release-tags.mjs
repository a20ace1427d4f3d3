#!/usr/bin/env node
// The tags a release makes, from the pushed tag and package.json's version: what .github/workflows/release.yml runs
// (and test/integration/release/ runs on the current version), so the workflow, the README's install lines and the
// `uses: alertform/alertform@vN` that `init` writes cannot drift apart.
//   usage: node scripts/release-tags.mjs TAG        (TAG: the pushed tag, $GITHUB_REF_NAME)
// Prints GitHub output lines on stdout:
//   version=0.1.0          package.json's version; the tag must be exactly v<version>
//   tarball=alertform-0.1.0.tgz
//   major_tag=v0           the Action's moving tag (uses: alertform/alertform@v0); empty for a pre-release
// A tag that is not v<version>, or a version that is not X.Y.Z[-pre], exits 1 with the reason on stderr.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

/**
 * The tags and file names of the release of `version` pushed as `tag`. The Action's major tag follows the package's
 * major, 0 included: v0.1.0 moves v0. A pre-release (v1.0.0-rc.1) moves no major tag.
 */
export function releaseTags(tag, version) {
  const parts = SEMVER.exec(version);
  if (!parts) throw new Error(`package.json's version ${JSON.stringify(version)} is not X.Y.Z or X.Y.Z-pre`);
  if (tag !== `v${version}`) throw new Error(`tag ${tag} is not v${version} (package.json): bump the version first`);
  return { version, tarball: `alertform-${version}.tgz`, major_tag: parts[4] === undefined ? `v${parts[1]}` : '' };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const tag = process.argv[2];
  if (!tag) {
    process.stderr.write('usage: node scripts/release-tags.mjs TAG\n');
    process.exit(2);
  }
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  try {
    for (const [key, value] of Object.entries(releaseTags(tag, version))) process.stdout.write(`${key}=${value}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
