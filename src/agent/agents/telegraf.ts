import { isHostedCarbonHost } from '../carbon.js';
import type { AgentDefinition } from '../agent-definition.js';
import { lineAt, type GraphiteOutput } from '../key-fields.js';
import { installCommand, refreshCommand, removeCommand } from '../package-manager.js';
import { commandStep, downloadStep, mkdirStep, writeStep } from '../steps.js';
import { renderTelegrafConfig } from '../templates/telegraf-config.js';

const INFLUX_KEY_URL = 'https://repos.influxdata.com/influxdata-archive.key';
const APT_KEY_PATH = '/etc/apt/keyrings/influxdata-archive.asc';
const APT_LIST_PATH = '/etc/apt/sources.list.d/influxdata.list';
const YUM_REPO_PATH = '/etc/yum.repos.d/influxdata.repo';

/** Telegraf from InfluxData's repository (apt, dnf/yum) or Homebrew, with a graphite output. */
export const telegraf: AgentDefinition = {
  name: 'telegraf',
  summary: "InfluxData's Telegraf with the graphite output (InfluxData repository on apt/dnf/yum, Homebrew on macOS)",
  defaultPlugins: ['cpu', 'disk', 'diskio', 'kernel', 'mem', 'processes', 'swap', 'system'],
  optionalPlugins: ['net', 'netstat', 'temp'],
  acceptsOtherPlugins: true,
  graphiteOutputName: '[[outputs.graphite]] section',
  packageName: () => 'telegraf',
  service: 'telegraf',
  configPath: (platform) => (platform.manager === 'brew' ? `${platform.brewPrefix}/etc/telegraf.conf` : '/etc/telegraf/telegraf.conf'),
  packageSteps(platform, runner, root) {
    const install = installCommand(platform.manager, 'telegraf');
    const undoInstall = removeCommand(platform.manager, 'telegraf').join(' ');
    if (platform.manager === 'brew') return [commandStep(runner, install, { undo: undoInstall, privileged: false })];
    if (platform.manager === 'apt') {
      return [
        mkdirStep(root, '/etc/apt/keyrings'),
        downloadStep(runner, root, INFLUX_KEY_URL, APT_KEY_PATH),
        writeStep(root, APT_LIST_PATH, `deb [signed-by=${APT_KEY_PATH}] https://repos.influxdata.com/debian stable main\n`, {
          undo: `rm ${root.resolve(APT_LIST_PATH)}`,
        }),
        commandStep(runner, refreshCommand('apt')!),
        commandStep(runner, install, { undo: undoInstall }),
      ];
    }
    return [
      writeStep(
        root,
        YUM_REPO_PATH,
        `[influxdata]\nname = InfluxData Repository - Stable\nbaseurl = https://repos.influxdata.com/stable/$basearch/main\nenabled = 1\ngpgcheck = 1\ngpgkey = ${INFLUX_KEY_URL}\n`,
        { undo: `rm ${root.resolve(YUM_REPO_PATH)}` },
      ),
      commandStep(runner, install, { undo: undoInstall }),
    ];
  },
  renderConfig: renderTelegrafConfig,
  findGraphiteOutputs: findTelegrafGraphiteOutputs,
};

const HEADER = /^[ \t]*\[(\[)?[ \t]*([A-Za-z0-9_."-]+)[ \t]*\]\]?[ \t]*(#.*)?$/;
const PREFIX_LINE = /^([ \t]*prefix[ \t]*=[ \t]*)(["'])([^"'\n]*)\2/;
const SERVERS_START = /^[ \t]*servers[ \t]*=[ \t]*\[/;

/**
 * The [[outputs.graphite]] sections of a telegraf.conf, found line by line (TOML tables end at the next header,
 * or at the end of the file: the last section counts as much as the first).
 */
export function findTelegrafGraphiteOutputs(text: string): GraphiteOutput[] {
  const outputs: GraphiteOutput[] = [];
  let current: { output: GraphiteOutput; servers: string[]; inSubtable: boolean } | undefined;
  let collectingServers = false;
  let offset = 0;
  const finish = () => {
    if (!current) return;
    const servers = current.servers.length ? current.servers : ['localhost:2003'];
    current.output.endpoint = servers.join(', ');
    current.output.hosted = servers.some((server) => isHostedCarbonHost(server.replace(/^tcp:\/\//, '').split(':')[0] ?? ''));
    outputs.push(current.output);
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line);
    if (header && !collectingServers) {
      const name = header[2]!.replace(/"/g, '');
      if (header[1] && name === 'outputs.graphite') {
        finish();
        current = { output: { line: lineAt(text, offset), endpoint: '', hosted: false }, servers: [], inSubtable: false };
      } else if (current && name.startsWith('outputs.graphite.')) {
        current.inSubtable = true;
      } else {
        finish();
      }
    } else if (current && !current.inSubtable) {
      const code = line.replace(/#.*$/, '');
      if (collectingServers || SERVERS_START.test(code)) {
        current.servers.push(...[...code.matchAll(/["']([^"']+)["']/g)].map((match) => match[1]!));
        collectingServers = !code.includes(']');
      }
      const prefix = PREFIX_LINE.exec(line);
      if (prefix) {
        const start = offset + prefix[1]!.length + 1;
        current.output.prefix = { start, end: start + prefix[3]!.length, value: prefix[3]! };
      }
    }
    offset += line.length + 1;
  }
  finish();
  return outputs;
}
