/**
 * The group key of a notification for a channel that groups by path nodes (pure): the triggered series' nodes at
 * `nodes`, joined by ".". Nodes past the end of the series are left out (a short series still groups).
 * `groupKey('servers.dc1.web3.cpu', [1])` is `dc1`.
 */
export function groupKey(series: string, nodes: readonly number[]): string {
  const parts = series.split('.');
  return nodes.flatMap((index) => (index < parts.length ? [parts[index]!] : [])).join('.');
}
