/**
 * Which files of a definitions directory are read, in one place for every reader: the work tree walk
 * (definitions and rule tests), a git revision's listing (`--ref`), the Action's search for `${VAR}` names and
 * the editor settings `init` writes (as globs).
 */

/** Project config is not a definitions document. */
export const PROJECT_FILE = 'alertform.yaml';

/**
 * The server's settings (`alertform serve --config alertform-server.yaml`, deploy/'s template): not definitions, so a
 * server config kept beside them is never read as one, wherever it lies.
 */
export const SERVER_CONFIG_FILE = 'alertform-server.yaml';

/** Rule tests (`alertform test`) live beside the definitions as `*.test.yaml`; they are not definitions. */
export const TEST_FILE = /\.test\.ya?ml$/;

/** A YAML file, definitions or not. */
export const YAML_FILE = /\.ya?ml$/;

/**
 * Directories never entered: dot-directories (.git, .github), node_modules, and the CI files' directories: a copy of
 * .github/workflows kept as `workflows/`, GitLab CI includes kept in `ci/`.
 */
const SKIPPED_DIR_NAMES = ['node_modules', 'workflows', 'ci'];

export function isSkippedDir(name: string): boolean {
  return name.startsWith('.') || SKIPPED_DIR_NAMES.includes(name);
}

/** Dot-files are never definitions: `.gitlab-ci.yml`, `.pre-commit-config.yaml`, `.yamllint.yml`... */
function isDotFile(relativePath: string): boolean {
  return (relativePath.split('/').pop() ?? '').startsWith('.');
}

/** True when a path relative to the definitions directory (`/`-separated) lies under a skipped directory. */
export function isUnderSkippedDir(relativePath: string): boolean {
  return relativePath.split('/').slice(0, -1).some(isSkippedDir);
}

/**
 * A definitions file, by its path relative to the definitions directory: YAML, not a rule test, not the root's
 * alertform.yaml, not a server config.
 */
export function isDefinitionFile(relativePath: string): boolean {
  return (
    YAML_FILE.test(relativePath) &&
    !TEST_FILE.test(relativePath) &&
    relativePath !== PROJECT_FILE &&
    relativePath.split('/').pop() !== SERVER_CONFIG_FILE &&
    !isDotFile(relativePath) &&
    !isUnderSkippedDir(relativePath)
  );
}

/** A rule test file, by its path relative to the definitions directory. */
export function isRuleTestFile(relativePath: string): boolean {
  return TEST_FILE.test(relativePath) && !isUnderSkippedDir(relativePath);
}

/** The skipped directories as exclusion globs. */
const SKIPPED_DIR_GLOBS = ['!**/.*/**', ...SKIPPED_DIR_NAMES.map((name) => `!**/${name}/**`)];

/**
 * The same rules as globs relative to the repository root, for editors that know no predicates (VS Code's
 * `yaml.schemas`, written by `init`): a file matches when a plain glob matches it and no `!` glob does.
 * test/unit/definitions/file-rules.test.ts holds them to the predicates above.
 */
export const DEFINITION_FILE_GLOBS = ['**/*.yaml', '**/*.yml', `!${PROJECT_FILE}`, `!**/${SERVER_CONFIG_FILE}`, '!**/*.test.yaml', '!**/*.test.yml', '!**/.*', ...SKIPPED_DIR_GLOBS];
export const RULE_TEST_FILE_GLOBS = ['**/*.test.yaml', '**/*.test.yml', ...SKIPPED_DIR_GLOBS];
