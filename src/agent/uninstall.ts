import type { AgentDefinition } from './agent-definition.js';
import type { AgentContext, FlowResult } from './context.js';
import { checkPrivileges } from './install.js';
import { installedQuery, isInstalled, removeCommand, serviceCommands } from './package-manager.js';
import { detectPlatform } from './platform.js';
import { printDryRun, printJson, previewJson, reportFailure } from './report.js';
import { formatCommand } from './runner.js';
import { commandStep, Progress, type Step } from './steps.js';

export interface UninstallOptions {
  config?: string;
  dryRun: boolean;
}

/** `agent uninstall`: stops the service, removes the package, keeps the config (restoring it if the package manager moved it) and says so. */
export async function uninstallAgent(context: AgentContext, agent: AgentDefinition, options: UninstallOptions): Promise<FlowResult> {
  const progress = new Progress(context.output, context.json);
  context.onProgress?.(progress);
  const base = { action: 'uninstall', agent: agent.name, dryRun: options.dryRun };
  if (!context.json) context.output.out(`${options.dryRun ? 'Planning to uninstall' : 'Uninstalling'} ${agent.name}\n`);
  try {
    const platform = await progress.step('detect the platform', () => detectPlatform(context.root, context.runner, context.host), {
      detail: (found) => `${found.description}, ${found.manager}`,
    });
    const packageName = agent.packageName(platform);
    const configPath = options.config ?? agent.configPath(platform);
    const config = context.root.resolve(configPath);
    const installed = await progress.step(`check whether ${packageName} is installed`, async () =>
      isInstalled(platform.manager, await context.runner.run(installedQuery(platform.manager, packageName))),
      { detail: (yes) => (yes ? 'yes' : 'no') },
    );
    if (!installed) {
      if (!context.json) context.output.out(`\n${agent.name} (${packageName}) is not installed: nothing to remove.\n`);
      const report = { ...base, ok: true, installed: false, steps: progress.records };
      printJson(context, report);
      return { ok: true, exitCode: 0, report };
    }

    const kept = await context.root.read(configPath);
    const service = serviceCommands(platform, agent.service);
    const stop: Step = {
      ...commandStep(context.runner, service.stop, { privileged: platform.manager !== 'brew' }),
      // A service that is not running (or has no unit) is as stopped as we need it.
      run: async () => {
        const result = await context.runner.run(service.stop);
        return result.code === 0 ? 'stopped' : 'was not running';
      },
      undo: formatCommand(service.start),
    };
    const remove = commandStep(context.runner, removeCommand(platform.manager, packageName), { privileged: platform.manager !== 'brew' });
    const steps: Step[] = [stop, remove];
    if (kept !== undefined) {
      steps.push({
        title: `keep ${config}`,
        preview: { kind: 'keep', path: config },
        privileged: platform.manager !== 'brew',
        async run() {
          // dnf moves an edited config to .rpmsave on removal: put it back where it was.
          if ((await context.root.read(configPath)) === kept) return 'still there';
          await context.root.writeAtomic(configPath, kept);
          return 'restored after the package manager removed it';
        },
      });
    }
    const summary = { ...base, installed: true, config: kept !== undefined ? config : undefined };
    if (options.dryRun) {
      printDryRun(context, steps);
      const report = { ...summary, ok: true, steps: progress.records, wouldRun: steps.map((step) => previewJson(step.preview)) };
      printJson(context, report);
      return { ok: true, exitCode: 0, report };
    }
    await progress.step('check privileges', async () => checkPrivileges(context, platform, steps));
    for (const step of steps) await progress.step(step.title, () => step.run(), { undo: step.undo, change: true });
    if (!context.json) {
      context.output.out(
        `\n✔ ${agent.name} is uninstalled (${packageName} removed, service stopped).\n` +
          (kept !== undefined
            ? `  config kept: ${config} (delete it yourself if you no longer need it)\n`
            : `  there was no config at ${config}\n`),
      );
    }
    const report = { ...summary, ok: true, steps: progress.records };
    printJson(context, report);
    return { ok: true, exitCode: 0, report };
  } catch (error) {
    return reportFailure(context, progress, error, base);
  }
}
