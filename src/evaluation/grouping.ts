/**
 * Grouping by path: a channel's `group_by.nodes` names the path nodes that say where a series lives (the `dc1` of
 * `servers.dc1.web3.cpu`), and notifications whose series share those nodes go out together.
 */

/**
 * The group key of a series: its path nodes at `nodes` (0-based), joined by ".". A node the series does not have
 * counts as empty, so a short series groups with the other short ones rather than failing.
 */
export function groupKey(series: string, nodes: readonly number[]): string {
  const parts = series.split('.');
  return nodes.map((index) => parts[index] ?? '').join('.');
}
