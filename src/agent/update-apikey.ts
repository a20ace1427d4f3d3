import type { AgentDefinition } from './agent-definition.js';
import { checkKeyShape, HOSTED_CARBON_HOST } from './carbon.js';
import { AgentInputError, type AgentContext, type FlowResult } from './context.js';
import { checkKeyStep } from './install.js';
import { lineAt, replaceKeyInPrefixes, type GraphiteOutput, type PrefixField } from './key-fields.js';
import { printJson, reportFailure } from './report.js';
import { Progress, StepFailure } from './steps.js';

export interface UpdateKeyOptions {
  apiKey: string;
  config: string;
  dryRun: boolean;
  verify: boolean;
  server: string;
}

/**
 * `agent update-apikey`: replaces the key, and only the key, in the prefix of each graphite output that sends
 * to the hosted endpoint, or to a relay when its prefix starts with a key (said as a note). Every other byte of the
 * file stays. A file without a graphite output, or whose outputs carry no key (self-hosted carbon), is refused.
 */
export async function updateAgentKey(context: AgentContext, agent: AgentDefinition, options: UpdateKeyOptions): Promise<FlowResult> {
  const progress = new Progress(context.output, context.json);
  context.onProgress?.(progress);
  const path = context.root.resolve(options.config);
  const base = { action: 'update-apikey', agent: agent.name, config: path, dryRun: options.dryRun };
  if (!context.json) context.output.out(`Updating the API key in ${path}\n`);
  try {
    const problem = checkKeyShape(options.apiKey);
    if (problem) throw new AgentInputError(problem);
    await checkKeyStep(context, progress, options);
    const { text, fields, relays } = await progress.step(`find the ${agent.graphiteOutputName} in ${path}`, () => findKeyFields(context, agent, options.config, options.apiKey), {
      detail: ({ text, fields }) => `line ${[...new Set(fields.map((field) => lineAt(text, field.start)))].join(', ')}`,
    });
    // Said before anything is written: a relay's prefix is updated because it starts with a key, not because the
    // output names the hosted endpoint; whoever runs this must know which lines that was.
    const relayNotes = relays.map(
      (relay) => `line ${relay.line} sends to ${relay.endpoint}, not ${HOSTED_CARBON_HOST}, but its prefix starts with an API key (a relay in front of Hosted Graphite): its key is updated too`,
    );
    if (!context.json) for (const note of relayNotes) context.output.out(`note: ${note}\n`);
    const updated = replaceKeyInPrefixes(text, fields, options.apiKey);
    const lines = [...new Set(fields.map((field) => lineAt(text, field.start)))];
    if (updated === text) {
      progress.skip(`write ${path}`, 'the file already has this key');
    } else if (options.dryRun) {
      if (!context.json) {
        const changed = updated.split('\n');
        context.output.out(`\ndry run: nothing was changed. ${path} would change only here:\n`);
        for (const line of lines) context.output.out(`  ${String(line).padStart(5)} | ${changed[line - 1]}\n`);
      }
    } else {
      await progress.step(`write ${path}`, () => context.root.writeAtomic(options.config, updated), { change: true });
    }
    const restart = context.host.platform === 'darwin' ? `brew services restart ${agent.service}` : `sudo systemctl restart ${agent.service}`;
    if (!context.json && !options.dryRun) {
      context.output.out(`\n✔ the API key is updated in ${path} (line ${lines.join(', ')}); nothing else changed.\n  restart: ${restart}\n`);
    }
    const report = { ...base, ok: true, lines, restart, ...(relayNotes.length > 0 ? { relays: relayNotes } : {}), steps: progress.records };
    printJson(context, report);
    return { ok: true, exitCode: 0, report };
  } catch (error) {
    return reportFailure(context, progress, error, base);
  }
}

/**
 * Whether a prefix's first part is an API key: long, with digits (Hosted Graphite keys are UUIDs), unlike the
 * words of a self-hosted prefix (`servers.telegraf`). A carbon relay in front of Hosted Graphite forwards names
 * as they are, so such a prefix carries the key even though the output does not name the hosted endpoint.
 */
export function prefixCarriesKey(prefix: string, newKey: string): boolean {
  const first = prefix.split('.')[0] ?? '';
  if (prefix.indexOf('.') <= 0) return false;
  return first === newKey || (first.length >= 16 && /\d/.test(first) && /^[A-Za-z0-9_-]+$/.test(first));
}

async function findKeyFields(
  context: AgentContext,
  agent: AgentDefinition,
  config: string,
  newKey: string,
): Promise<{ text: string; fields: PrefixField[]; relays: GraphiteOutput[] }> {
  const path = context.root.resolve(config);
  const text = await context.root.read(config).catch((error: Error) => {
    throw new StepFailure(`read ${path}`, error.message);
  });
  if (text === undefined) throw new Error(`${path} does not exist`);
  const outputs = agent.findGraphiteOutputs(text);
  if (outputs.length === 0) {
    throw new Error(`${path} has no ${agent.graphiteOutputName}: there is no graphite output whose key could be updated`);
  }
  const hosted = outputs.filter((output) => output.hosted);
  const relays = outputs.filter((output) => !output.hosted && output.prefix && prefixCarriesKey(output.prefix.value, newKey));
  if (hosted.length === 0 && relays.length === 0) {
    const where = outputs.map((output) => `${output.endpoint} (line ${output.line})`).join(', ');
    throw new Error(
      `${path} sends metrics to ${where}, a self-hosted carbon: its metric names carry no API key, so there is no key to update`,
    );
  }
  const missing = hosted.find((output) => !output.prefix || output.prefix.value.indexOf('.') <= 0);
  if (missing) {
    throw new Error(`the ${agent.graphiteOutputName} at line ${missing.line} of ${path} sends to the hosted carbon but has no KEY.<name> prefix to update`);
  }
  const fields = [...new Map([...hosted, ...relays].map((output) => [output.prefix!.start, output.prefix!])).values()];
  return { text, fields, relays };
}
