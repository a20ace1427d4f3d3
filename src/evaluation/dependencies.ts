/**
 * Alert dependencies (pure): while a parent alert is alerting, its children's new pages are held. An edge names the
 * parent by id and, optionally, maps path nodes, so that "the disk alert of host X depends on the ping alert of
 * host X" is said once for a wildcard.
 */

/** One parent of an alert: `alert` is its id (the API's read form); `nodes`/`parent_nodes` are 0-based path nodes. */
export interface DependencyEdge {
  alert: string;
  nodes?: number[];
  parent_nodes?: number[];
}

/** The path nodes of a series at `indexes`, or null when the series is too short for one of them. */
function nodesAt(series: string, indexes: readonly number[]): string[] | null {
  const parts = series.split('.');
  const picked: string[] = [];
  for (const index of indexes) {
    if (index >= parts.length) return null;
    picked.push(parts[index]!);
  }
  return picked;
}

/**
 * The parent (and its series) that holds `childSeries`, or null. Without `nodes`, any alerting series of the parent
 * holds it; with `nodes`, only a parent series whose nodes at `parent_nodes` (default: the same indexes) equal the
 * child series' nodes at `nodes`. `parentAlerting` gives a parent's alerting series, null when it is not alerting.
 */
export function heldBy(
  childSeries: string,
  deps: readonly DependencyEdge[],
  parentAlerting: (alertId: string) => string[] | null,
): { alertId: string; series: string } | null {
  for (const dep of deps) {
    const alerting = parentAlerting(dep.alert);
    if (alerting === null) continue;
    if (!dep.nodes || dep.nodes.length === 0) {
      return { alertId: dep.alert, series: alerting[0] ?? '' };
    }
    const wanted = nodesAt(childSeries, dep.nodes);
    if (wanted === null) continue;
    const parentNodes = dep.parent_nodes ?? dep.nodes;
    const match = alerting.find((series) => nodesAt(series, parentNodes)?.join('.') === wanted.join('.'));
    if (match !== undefined) return { alertId: dep.alert, series: match };
  }
  return null;
}

/**
 * A cycle among dependency edges (child -> parent), as the ids along it with the first repeated at the end
 * (`[a, b, a]`; a self-dependency is `[a, a]`), or null when there is none.
 */
export function findDependencyCycle(edges: Iterable<{ from: string; to: string }>): string[] | null {
  const parents = new Map<string, string[]>();
  for (const { from, to } of edges) {
    const list = parents.get(from);
    if (list) list.push(to);
    else parents.set(from, [to]);
  }
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (node: string): string[] | null => {
    if (onPath.has(node)) return [...path.slice(path.indexOf(node)), node];
    if (done.has(node)) return null;
    onPath.add(node);
    path.push(node);
    for (const parent of parents.get(node) ?? []) {
      const cycle = visit(parent);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(node);
    done.add(node);
    return null;
  };
  for (const node of parents.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}
