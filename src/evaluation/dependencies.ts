/**
 * Dependencies between alerts: while a parent alerts, the new notifications of an alert that depends on it are held
 * (a switch down pages once, not once per host behind it). The server decides from the parent's stored state at the
 * fenced save; `validate`, `plan` and the API refuse a cycle. Both decisions are here, pure.
 */

/** One `depends_on` item of a child, with the parent resolved to an id. */
export interface DependencyEdge {
  alertId: string;
  /** The child series' path nodes (0-based) that must equal the parent series' nodes at `parentNodes`. */
  nodes?: readonly number[];
  /** The parent series' nodes compared with the child's `nodes`; absent: the same indexes. */
  parentNodes?: readonly number[];
}

/** Which parent, and which of its series, holds a child series back. */
export interface Holder {
  alertId: string;
  /** The parent's alerting series that holds it ('' when the parent alerts without naming a series). */
  series: string;
}

/**
 * The parent that holds `childSeries` back, or null when none does. `parentAlerting` gives a parent's alerting
 * series, or null when it is not alerting. Without `nodes` a child is held while its parent alerts at all; with
 * `nodes`, only by a parent series whose nodes at `parentNodes` equal the child series' nodes at `nodes` (the disk
 * alert of host X is held by the ping alert of host X, not of host Y). Chains need no walk here: a parent that is
 * itself held still alerts, so its state holds its own children.
 */
export function heldBy(childSeries: string, deps: readonly DependencyEdge[], parentAlerting: (alertId: string) => readonly string[] | null): Holder | null {
  for (const dep of deps) {
    const alerting = parentAlerting(dep.alertId);
    if (alerting === null) continue;
    if (!dep.nodes || dep.nodes.length === 0) return { alertId: dep.alertId, series: alerting[0] ?? '' };
    const wanted = nodesAt(childSeries, dep.nodes);
    if (wanted === null) continue;
    const series = seriesByNodes(alerting, dep.parentNodes ?? dep.nodes).get(wanted);
    if (series !== undefined) return { alertId: dep.alertId, series };
  }
  return null;
}

/** Each alerting list's series by their nodes at some indexes, made once per list (a round asks it per child series). */
const indexes = new WeakMap<readonly string[], Map<string, Map<string, string>>>();

/**
 * `alerting`'s series by their nodes at `at` (the first series of each key), made at the first question and kept
 * with the list: a child of thousands of series then costs one lookup per series, not a walk of the parent's.
 */
function seriesByNodes(alerting: readonly string[], at: readonly number[]): Map<string, string> {
  let byIndexes = indexes.get(alerting);
  if (!byIndexes) indexes.set(alerting, (byIndexes = new Map()));
  const key = at.join(',');
  let index = byIndexes.get(key);
  if (!index) {
    index = new Map();
    for (const series of alerting) {
      const nodes = nodesAt(series, at);
      if (nodes !== null && !index.has(nodes)) index.set(nodes, series);
    }
    byIndexes.set(key, index);
  }
  return index;
}

/** The series' nodes at `indexes`, joined; null when it has fewer nodes (a short name matches nothing). */
function nodesAt(series: string, indexes: readonly number[]): string | null {
  const parts = series.split('.');
  const picked: string[] = [];
  for (const index of indexes) {
    const part = parts[index];
    if (part === undefined) return null;
    picked.push(part);
  }
  return picked.join('.');
}

/** One edge of the dependency graph: `child` depends on `parent` (ids in the server, names in definitions). */
export interface DependsOn {
  child: string;
  parent: string;
}

/**
 * A cycle of the dependency graph as the path that closes it, e.g. `[a, b, a]` (`[a, a]` for an alert that depends
 * on itself), or null when there is none. A cycle would hold every alert on it for as long as any of them alerts.
 */
export function findDependencyCycle(edges: Iterable<DependsOn>): string[] | null {
  const parents = new Map<string, string[]>();
  for (const { child, parent } of edges) {
    const list = parents.get(child);
    if (list) list.push(parent);
    else parents.set(child, [parent]);
  }
  // Depth-first, iterative (a chain of thousands of alerts must not overflow the stack); `done` nodes lead to no cycle.
  const done = new Set<string>();
  for (const start of [...parents.keys()].sort()) {
    if (done.has(start)) continue;
    const path: string[] = [start];
    const onPath = new Set<string>([start]);
    const next: number[] = [0];
    while (path.length > 0) {
      const node = path[path.length - 1]!;
      const list = parents.get(node) ?? [];
      const i = next[next.length - 1]!;
      if (i >= list.length) {
        done.add(node);
        onPath.delete(node);
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const parent = list[i]!;
      if (onPath.has(parent)) return [...path.slice(path.indexOf(parent)), parent];
      if (done.has(parent)) continue;
      path.push(parent);
      onPath.add(parent);
      next.push(0);
    }
  }
  return null;
}
