import { loadDefinitionsFromDir, loadDefinitionsInSlices, type LoadOptions } from './load.js';
import { loadProjectConfig, parseProjectConfig, type ProjectConfig } from './project.js';
import type { Definitions } from './definitions.js';
import type { Problem } from './problems.js';
import { sortProblems } from './problems.js';

/** A definitions directory, loaded: its resources, its alertform.yaml, and every problem found. */
export interface LoadedProject {
  definitions: Definitions;
  config: ProjectConfig;
  problems: Problem[];
  files: string[];
}

/** Loads a definitions directory from the work tree, or as it was at a git revision when `ref` is given. */
export async function loadProject(dir: string, options: LoadOptions & { ref?: string } = {}): Promise<LoadedProject> {
  if (options.ref) {
    // simple-git is loaded only for a revision: the CLI's start-up time is mostly module loading.
    const { readDefinitionFilesAtRef } = await import('./git-source.js');
    const { files, projectFile } = await readDefinitionFilesAtRef(dir, options.ref);
    const loaded = await loadDefinitionsInSlices(files, options);
    const project = projectFile ? parseProjectConfig(projectFile.text, projectFile.path) : { config: { prune: false as const }, problems: [] };
    return { definitions: loaded.definitions, config: project.config, problems: sortProblems([...project.problems, ...loaded.problems]), files: loaded.files };
  }
  const [loaded, project] = await Promise.all([loadDefinitionsFromDir(dir, options), loadProjectConfig(dir)]);
  return { definitions: loaded.definitions, config: project.config, problems: sortProblems([...project.problems, ...loaded.problems]), files: loaded.files };
}
