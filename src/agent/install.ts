import type { AgentDefinition } from './agent-definition.js';
import { checkKeyShape, formatCarbon, metricPrefix, parseCarbon } from './carbon.js';
import { AgentInputError, type AgentContext, type FlowResult } from './context.js';
import { installedQuery, isInstalled, needsRoot, serviceCommands } from './package-manager.js';
import { detectPlatform, type Platform } from './platform.js';
import { resolvePlugins } from './plugins.js';
import { printDryRun, printJson, previewJson, reportFailure } from './report.js';
import { formatCommand } from './runner.js';
import { copyStep, Progress, writeStep, type Step } from './steps.js';
import { displayServer } from './verify-key.js';
import type { FileRoot } from './root.js';

export interface InstallOptions {
  apiKey?: string;
  /** Plugins added to the defaults (`--plugins`). */
  addPlugins?: string[];
  /** The exact plugin list (TUI custom choice); wins over addPlugins. */
  plugins?: string[];
  carbon?: string;
  prefix?: string;
  /** Config path instead of the agent's default for the platform. */
  config?: string;
  dryRun: boolean;
  /** Check the key against the API first (default); false with --no-verify. */
  verify: boolean;
  /** Base URL of the /v2 API that checks the key. */
  server: string;
}

/**
 * `agent install`: check the key, detect the platform, install the package when missing, back up and write the
 * config; then say what was enabled, where the config is and how to start the agent.
 */
export async function installAgent(context: AgentContext, agent: AgentDefinition, options: InstallOptions): Promise<FlowResult> {
  const progress = new Progress(context.output, context.json);
  context.onProgress?.(progress);
  const base = { action: 'install', agent: agent.name, dryRun: options.dryRun };
  if (!context.json) context.output.out(`${options.dryRun ? 'Planning' : 'Installing'} ${agent.name}${rootNote(context.root)}\n`);
  try {
    const plugins = resolvePlugins(agent, { add: options.addPlugins, chosen: options.plugins });
    const carbon = parseCarbon(options.carbon);
    // A self-hosted carbon takes no key (it never enters a metric name): one given, say an ALERTFORM_API_KEY kept
    // for plan and apply against alertform serve, is neither checked nor sent anywhere.
    const apiKey = carbon.hosted ? options.apiKey : undefined;
    if (apiKey !== undefined) {
      const problem = checkKeyShape(apiKey);
      if (problem) throw new AgentInputError(problem);
    }
    const prefix = metricPrefix(carbon, agent.name, apiKey, options.prefix);

    if (carbon.hosted) await checkKeyStep(context, progress, options);
    else progress.skip('check the API key', `not needed: ${formatCarbon(carbon)} is a self-hosted carbon, which takes no key`);
    const platform = await progress.step('detect the platform', () => detectPlatform(context.root, context.runner, context.host), {
      detail: (found) => `${found.description}, ${found.manager}`,
    });
    const packageName = agent.packageName(platform);
    const installed = await progress.step(`check whether ${packageName} is installed`, async () =>
      isInstalled(platform.manager, await context.runner.run(installedQuery(platform.manager, packageName))),
      { detail: (yes) => (yes ? 'yes, the package step is skipped' : 'no') },
    );

    const configPath = options.config ?? agent.configPath(platform);
    const content = agent.renderConfig({ plugins, carbon, prefix });
    const steps: Step[] = installed ? [] : agent.packageSteps(platform, context.runner, context.root);
    const existing = await context.root.read(configPath);
    // Files under a staging --root are not system-wide: they need no root (a denied write still fails clearly).
    const systemFiles = needsRoot(platform) && context.root.dir === '/';
    let backup: string | undefined;
    if (existing !== undefined && existing !== content) {
      backup = await freeBackupPath(context.root, configPath);
      steps.push(copyStep(context.root, configPath, backup, { undo: `rm ${context.root.resolve(backup)}`, privileged: systemFiles }));
    }
    if (existing !== content) {
      steps.push(
        writeStep(context.root, configPath, content, {
          privileged: systemFiles,
          undo: backup
            ? `mv ${context.root.resolve(backup)} ${context.root.resolve(configPath)}`
            : `rm ${context.root.resolve(configPath)}`,
        }),
      );
    }
    const start = startCommand(platform, agent);
    const summary = {
      ...base,
      plugins,
      config: context.root.resolve(configPath),
      ...(backup ? { backup: context.root.resolve(backup) } : {}),
      carbon: formatCarbon(carbon),
      prefix,
      start,
    };

    if (options.dryRun) {
      printDryRun(context, steps);
      if (!context.json) printSummary(context, agent, summary, existing === content, true);
      const report = { ...summary, ok: true, steps: progress.records, wouldRun: steps.map((step) => previewJson(step.preview)) };
      printJson(context, report);
      return { ok: true, exitCode: 0, report };
    }

    await progress.step('check privileges', async () => checkPrivileges(context, platform, steps), {});
    for (const step of steps) await progress.step(step.title, () => step.run(), { undo: step.undo, change: true });
    if (existing === content) progress.skip(`write ${context.root.resolve(configPath)}`, 'already up to date');

    if (!context.json) printSummary(context, agent, summary, existing === content, false);
    const report = { ...summary, ok: true, steps: progress.records };
    printJson(context, report);
    return { ok: true, exitCode: 0, report };
  } catch (error) {
    return reportFailure(context, progress, error, base);
  }
}

/** The key check shared by install and update-apikey. */
export async function checkKeyStep(
  context: AgentContext,
  progress: Progress,
  options: { apiKey?: string; verify: boolean; server: string },
): Promise<void> {
  if (!options.apiKey) {
    progress.skip('check the API key', 'no key given (a self-hosted carbon does not need one)');
  } else if (!options.verify) {
    progress.skip('check the API key', 'skipped (--no-verify)');
  } else {
    const key = options.apiKey;
    await progress.step(`check the API key with ${displayServer(options.server)}`, async () => {
      const check = await context.checkKey(options.server, key);
      if (!check.ok) throw new Error(check.reason);
      return 'accepted';
    });
  }
}

/** Root is needed for system package managers and system paths, unless nothing really runs. */
export function checkPrivileges(context: AgentContext, platform: Platform, steps: readonly Step[]): string {
  if (context.runner.simulated) return 'commands are only recorded (ALERTFORM_AGENT_RUNNER)';
  const privileged = steps.filter((step) => step.privileged);
  if (platform.manager === 'brew' && context.host.uid === 0) {
    throw new Error('Homebrew refuses to run as root: run this again without sudo');
  }
  if (privileged.length > 0 && context.host.uid !== undefined && context.host.uid !== 0) {
    throw new Error(`'${privileged[0]!.title}' needs root: run this again with sudo (or as root)`);
  }
  return privileged.length > 0 ? 'running as root' : 'no root needed';
}

export function startCommand(platform: Platform, agent: AgentDefinition): string {
  const argv = serviceCommands(platform, agent.service).start;
  return platform.manager === 'brew' ? formatCommand(argv) : `sudo ${formatCommand(argv)}`;
}

/** `<path>.bak`, or `<path>.bak.N` when earlier backups exist: a first backup (the user's own config) is never overwritten. */
async function freeBackupPath(root: FileRoot, path: string): Promise<string> {
  if (!(await root.exists(`${path}.bak`))) return `${path}.bak`;
  for (let n = 1; ; n++) if (!(await root.exists(`${path}.bak.${n}`))) return `${path}.bak.${n}`;
}

function printSummary(
  context: AgentContext,
  agent: AgentDefinition,
  summary: { plugins: string[]; config: string; backup?: string; carbon: string; prefix: string; start: string },
  unchanged: boolean,
  dryRun: boolean,
): void {
  const head = dryRun ? `${agent.name} would be installed and configured.` : `✔ ${agent.name} is installed and configured.`;
  const config = `${summary.config}${unchanged ? ' (already up to date)' : ''}${summary.backup ? ` (the previous one is kept at ${summary.backup})` : ''}`;
  context.output.out(
    [
      '',
      head,
      `  plugins: ${summary.plugins.join(', ')}`,
      `  config:  ${config}`,
      `  metrics: sent to ${summary.carbon} with the prefix ${summary.prefix}`,
      `  start:   ${summary.start}   (metrics flow once the agent runs)`,
      '',
    ].join('\n'),
  );
}

function rootNote(root: FileRoot): string {
  return root.dir === '/' ? '' : ` (files under root ${root.dir})`;
}
