import { isMap, isScalar, isSeq, parseDocument, type Node, type Scalar } from 'yaml';
import { isHostedCarbonHost } from '../carbon.js';
import type { AgentDefinition } from '../agent-definition.js';
import { ConfigFormatError, lineAt, type GraphiteOutput, type PrefixField } from '../key-fields.js';
import { installCommand, removeCommand } from '../package-manager.js';
import { PlatformError } from '../platform.js';
import { commandStep, downloadStep } from '../steps.js';
import { renderOtelConfig } from '../templates/otel-config.js';

/** The otelcol-contrib release the installer downloads (deb/rpm from the project's GitHub releases). */
export const OTELCOL_VERSION = '0.115.0';
const RELEASES = 'https://github.com/open-telemetry/opentelemetry-collector-releases/releases/download';

/** The OpenTelemetry Collector (contrib) with the hostmetrics receiver and the carbon exporter. */
export const otel: AgentDefinition = {
  name: 'otel',
  summary: `OpenTelemetry Collector contrib ${OTELCOL_VERSION}: hostmetrics receiver (30 s), batch, carbon exporter (deb/rpm from its releases)`,
  defaultPlugins: ['cpu', 'disk', 'filesystem', 'load', 'memory', 'network', 'paging', 'processes'],
  optionalPlugins: ['process', 'system'],
  acceptsOtherPlugins: false,
  graphiteOutputName: 'carbon exporter',
  packageName: () => 'otelcol-contrib',
  service: 'otelcol-contrib',
  configPath: () => '/etc/otelcol-contrib/config.yaml',
  packageSteps(platform, runner, root) {
    if (platform.manager === 'brew') {
      throw new PlatformError('otel has no Homebrew package: on macOS install telegraf or collectd instead');
    }
    const kind = platform.manager === 'apt' ? 'deb' : 'rpm';
    const arch = kind === 'deb' ? platform.arch : platform.arch === 'amd64' ? 'x86_64' : 'aarch64';
    const file = `otelcol-contrib_${OTELCOL_VERSION}_linux_${arch}.${kind}`;
    const path = `/var/cache/alertform/${file}`;
    return [
      downloadStep(runner, root, `${RELEASES}/v${OTELCOL_VERSION}/${file}`, path),
      commandStep(runner, installCommand(platform.manager, root.resolve(path)), {
        undo: removeCommand(platform.manager, 'otelcol-contrib').join(' '),
      }),
    ];
  },
  renderConfig: renderOtelConfig,
  findGraphiteOutputs: findOtelGraphiteOutputs,
};

/**
 * The carbon exporters of a collector config, and the key-bearing prefix: the `new_name` of a
 * metricstransform processor's catch-all rename. Offsets come from the YAML parser, so sections may be in any
 * order and styled any way.
 */
export function findOtelGraphiteOutputs(text: string): GraphiteOutput[] {
  const document = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false });
  if (document.errors.length > 0) {
    const first = document.errors[0]!;
    throw new ConfigFormatError(`not valid YAML at line ${first.linePos?.[0]?.line ?? '?'}: ${first.message.split('\n')[0]}`);
  }
  const prefixes = findPrefixFields(text, document.get('processors'));
  const exporters = document.get('exporters');
  const outputs: GraphiteOutput[] = [];
  if (!isMap(exporters)) return outputs;
  for (const pair of exporters.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : '';
    if (name !== 'carbon' && !name.startsWith('carbon/')) continue;
    const endpointNode = isMap(pair.value) ? pair.value.get('endpoint', true) : undefined;
    const endpoint = isScalar(endpointNode) ? String(endpointNode.value) : 'localhost:2003';
    const hosted = isHostedCarbonHost(endpoint.split(':')[0] ?? '');
    const keyRange = (pair.key as Node | null)?.range;
    outputs.push({ line: keyRange ? lineAt(text, keyRange[0]) : 1, endpoint, hosted, ...(hosted && prefixes[0] ? { prefix: prefixes[0] } : {}) });
    // Every hosted exporter shares the pipeline's prefix: the remaining prefix fields belong to it too.
    if (hosted) for (const extra of prefixes.slice(1)) outputs.push({ line: outputs.at(-1)!.line, endpoint, hosted, prefix: extra });
  }
  return outputs;
}

function findPrefixFields(text: string, processors: unknown): PrefixField[] {
  const fields: PrefixField[] = [];
  if (!isMap(processors)) return fields;
  for (const pair of processors.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!name.startsWith('metricstransform') || !isMap(pair.value)) continue;
    const transforms = pair.value.get('transforms');
    if (!isSeq(transforms)) continue;
    for (const transform of transforms.items) {
      if (!isMap(transform)) continue;
      const newName = transform.get('new_name', true) as Scalar | undefined;
      if (!isScalar(newName) || !newName.range || typeof newName.value !== 'string') continue;
      if (!/\$\$?\{1\}$/.test(newName.value)) continue;
      const source = text.slice(newName.range[0], newName.range[1]);
      const quote = source.startsWith('"') || source.startsWith("'") ? 1 : 0;
      const start = newName.range[0] + quote;
      fields.push({ start, end: newName.range[1] - quote, value: text.slice(start, newName.range[1] - quote) });
    }
  }
  return fields;
}
