import { formatCarbon } from '../carbon.js';
import type { ConfigInput } from '../agent-definition.js';

/**
 * config.yaml of otelcol-contrib: hostmetrics (30 s) -> metricstransform (the prefix) -> batch -> carbon.
 * The carbon exporter has no prefix setting, so a regexp rename puts the prefix in front of every metric;
 * `$$` is the collector's escape for a literal `$`.
 */
export function renderOtelConfig(input: ConfigInput): string {
  const scrapers = input.plugins.map((name) => `      ${name}: {}\n`).join('');
  return `# OpenTelemetry Collector (contrib) configuration, written by \`alertform agent install otel\`.
# Restart otelcol-contrib after editing. \`alertform agent update-apikey\` changes only the key in the prefix below.
receivers:
  hostmetrics:
    collection_interval: 30s
    scrapers:
${scrapers}
processors:
  metricstransform/prefix:
    transforms:
      - include: ^(.*)$$
        match_type: regexp
        action: update
        new_name: ${input.prefix}.$\${1}
  batch: {}

exporters:
  carbon:
    endpoint: ${formatCarbon(input.carbon)}
    timeout: 10s

service:
  pipelines:
    metrics:
      receivers: [hostmetrics]
      processors: [metricstransform/prefix, batch]
      exporters: [carbon]
`;
}
