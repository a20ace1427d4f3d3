import type { ConfigInput } from '../agent-definition.js';

/** Settings of plugins that need more than LoadPlugin. */
const PLUGIN_SETTINGS: Record<string, string> = {
  df: '<Plugin df>\n  FSType tmpfs\n  FSType devtmpfs\n  FSType overlay\n  FSType squashfs\n  IgnoreSelected true\n</Plugin>\n',
  interface: '<Plugin interface>\n  Interface "lo"\n  IgnoreSelected true\n</Plugin>\n',
};

/**
 * collectd.conf with the write_graphite plugin. PluginDir and TypesDB are left to the package's built-in
 * defaults (/usr/lib/collectd and /usr/share/collectd/types.db on Debian), which are right for each distro.
 * write_graphite puts Prefix right before the host name, hence the trailing dot; without FlushInterval it would
 * hold metrics until its send buffer is full.
 */
export function renderCollectdConfig(input: ConfigInput): string {
  const loads = input.plugins.map((name) => `LoadPlugin ${name}\n`).join('');
  const settings = input.plugins.map((name) => PLUGIN_SETTINGS[name]).filter(Boolean).join('\n');
  return `# collectd configuration, written by \`alertform agent install collectd\`.
# Restart collectd after editing. \`alertform agent update-apikey\` changes only the key in <Plugin write_graphite>.
FQDNLookup false
Interval 10

LoadPlugin syslog
<Plugin syslog>
  LogLevel info
</Plugin>

${loads}${settings ? `\n${settings}` : ''}
# Send what is buffered every 10 s, not only when the send buffer is full.
<LoadPlugin write_graphite>
  FlushInterval 10
</LoadPlugin>
<Plugin write_graphite>
  <Node "alertform">
    Host "${input.carbon.host.replace(/^\[|\]$/g, '')}"
    Port "${input.carbon.port}"
    Protocol "tcp"
    Prefix "${input.prefix}."
    StoreRates true
    AlwaysAppendDS false
    EscapeCharacter "_"
    LogSendErrors true
  </Node>
</Plugin>
`;
}
