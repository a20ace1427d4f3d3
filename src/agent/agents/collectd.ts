import { isHostedCarbonHost } from '../carbon.js';
import type { AgentDefinition } from '../agent-definition.js';
import { lineAt, type GraphiteOutput } from '../key-fields.js';
import { installCommand, refreshCommand, removeCommand } from '../package-manager.js';
import type { Platform } from '../platform.js';
import { commandStep } from '../steps.js';
import { renderCollectdConfig } from '../templates/collectd-config.js';

function packageName(platform: Platform): string {
  // Debian's collectd-core is the daemon and its plugins without the dependency-heavy extras.
  return platform.family === 'debian' || (platform.family === 'other' && platform.manager === 'apt') ? 'collectd-core' : 'collectd';
}

/** collectd from the distribution (or Homebrew) with the write_graphite plugin. */
export const collectd: AgentDefinition = {
  name: 'collectd',
  summary: 'collectd with the write_graphite plugin (distribution package: collectd-core on Debian/Ubuntu, collectd on dnf/yum and Homebrew)',
  defaultPlugins: ['cpu', 'df', 'disk', 'interface', 'load', 'memory', 'processes', 'swap'],
  optionalPlugins: ['contextswitch', 'entropy', 'irq', 'tcpconns', 'thermal', 'uptime', 'users', 'vmem'],
  acceptsOtherPlugins: true,
  graphiteOutputName: '<Plugin write_graphite> block',
  packageName,
  service: 'collectd',
  configPath: (platform) =>
    platform.manager === 'brew'
      ? `${platform.brewPrefix}/etc/collectd.conf`
      : platform.family === 'rhel'
        ? '/etc/collectd.conf'
        : '/etc/collectd/collectd.conf',
  packageSteps(platform, runner) {
    const name = packageName(platform);
    const install = commandStep(runner, installCommand(platform.manager, name), {
      undo: removeCommand(platform.manager, name).join(' '),
      privileged: platform.manager !== 'brew',
    });
    const refresh = refreshCommand(platform.manager);
    return refresh ? [commandStep(runner, refresh), install] : [install];
  },
  renderConfig: renderCollectdConfig,
  findGraphiteOutputs: findCollectdGraphiteOutputs,
};

const PLUGIN_OPEN = /^[ \t]*<Plugin[ \t]+"?write_graphite"?[ \t]*>/i;
const PLUGIN_CLOSE = /^[ \t]*<\/Plugin[ \t]*>/i;
const NODE_OPEN = /^[ \t]*<(Node|Carbon)\b[^>]*>/i;
const NODE_CLOSE = /^[ \t]*<\/(Node|Carbon)[ \t]*>/i;
const OPTION = /^([ \t]*(Host|Port|Prefix)[ \t]+)(?:"([^"\n]*)"|([^\s#"]+))/i;

/** The <Node>s (or older <Carbon>s) of every <Plugin write_graphite> block, found line by line. */
export function findCollectdGraphiteOutputs(text: string): GraphiteOutput[] {
  const outputs: GraphiteOutput[] = [];
  let inPlugin = false;
  let node: { line: number; host: string; port: string; prefix?: GraphiteOutput['prefix'] } | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    if (!inPlugin && PLUGIN_OPEN.test(line)) inPlugin = true;
    else if (inPlugin && !node && PLUGIN_CLOSE.test(line)) inPlugin = false;
    else if (inPlugin && !node && NODE_OPEN.test(line)) node = { line: lineAt(text, offset), host: 'localhost', port: '2003' };
    else if (node && NODE_CLOSE.test(line)) {
      outputs.push({ line: node.line, endpoint: `${node.host}:${node.port}`, hosted: isHostedCarbonHost(node.host), ...(node.prefix ? { prefix: node.prefix } : {}) });
      node = undefined;
    } else if (node) {
      const option = OPTION.exec(line);
      if (option) {
        const value = option[3] ?? option[4] ?? '';
        const key = option[2]!.toLowerCase();
        if (key === 'host') node.host = value;
        else if (key === 'port') node.port = value;
        else {
          const start = offset + option[1]!.length + (option[3] !== undefined ? 1 : 0);
          node.prefix = { start, end: start + value.length, value };
        }
      }
    }
    offset += line.length + 1;
  }
  return outputs;
}
