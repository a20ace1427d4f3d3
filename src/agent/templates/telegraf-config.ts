import { formatCarbon } from '../carbon.js';
import type { ConfigInput } from '../agent-definition.js';

/** Settings of inputs that need more than their header; the others run with telegraf's defaults. */
const INPUT_SETTINGS: Record<string, string> = {
  cpu: '  percpu = true\n  totalcpu = true\n  collect_cpu_time = false\n  report_active = false\n',
  disk: '  ignore_fs = ["tmpfs", "devtmpfs", "devfs", "iso9660", "overlay", "aufs", "squashfs"]\n',
};

/** telegraf.conf: agent settings, one graphite output, one section per input. */
export function renderTelegrafConfig(input: ConfigInput): string {
  const inputs = input.plugins.map((name) => `[[inputs.${name}]]\n${INPUT_SETTINGS[name] ?? ''}`).join('\n');
  return `# Telegraf configuration, written by \`alertform agent install telegraf\`.
# Restart telegraf after editing. \`alertform agent update-apikey\` changes only the key in [[outputs.graphite]].

[agent]
  interval = "10s"
  round_interval = true
  metric_batch_size = 1000
  metric_buffer_limit = 10000
  collection_jitter = "0s"
  flush_interval = "10s"
  flush_jitter = "0s"
  precision = ""
  omit_hostname = false

[[outputs.graphite]]
  servers = ["${formatCarbon(input.carbon)}"]
  prefix = "${input.prefix}"
  template = "host.tags.measurement.field"
  timeout = 2

${inputs}`;
}
