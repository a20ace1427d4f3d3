import type { AdditionalCriterion, AlertCriteria } from '../model/types.js';

/** A threshold on one query: the building block both importers turn their conditions into. */
export interface Threshold {
  metric: string;
  op: '>' | '>=' | '<' | '<=';
  value: number;
}

/** A boolean tree of thresholds (Moira's `&&`/`||`, Grafana's range checks). */
export type ThresholdTree = { kind: 'threshold'; threshold: Threshold } | { kind: 'and' | 'or'; left: ThresholdTree; right: ThresholdTree };

/** The criteria part of an alert: letter `a` and, for more than one threshold, the others and the expression. */
export interface ComposedCriteria {
  metric: string;
  alert_criteria: AlertCriteria;
  additional_criteria?: Record<string, AdditionalCriterion>;
  expression?: string;
  /** True when a `>=` or `<=` became alertform's strict `above`/`below`. */
  inclusive: boolean;
}

const LETTERS = ['a', 'b', 'c', 'd'];

/**
 * An alert's criteria from a tree of thresholds: each threshold a letter (at most four: the API's limit), the tree
 * the expression. `timePeriod` (minutes) applies to every letter. `>=`/`<=` map to the strict `above`/`below`:
 * the only difference is a value exactly at the threshold, and the caller reports it.
 */
export function composeCriteria(tree: ThresholdTree, timePeriod: number | null): ComposedCriteria | { why: string } {
  const thresholds: Threshold[] = [];
  const collect = (node: ThresholdTree): void => {
    if (node.kind === 'threshold') thresholds.push(node.threshold);
    else {
      collect(node.left);
      collect(node.right);
    }
  };
  collect(tree);
  if (thresholds.length > LETTERS.length) return { why: `${thresholds.length} comparisons: an alert has at most ${LETTERS.length} criteria` };
  let next = 0;
  const expression = (node: ThresholdTree, parent: 'and' | 'or' | null): string => {
    if (node.kind === 'threshold') return LETTERS[next++]!;
    const text = `${expression(node.left, node.kind)} ${node.kind === 'and' ? '&&' : '||'} ${expression(node.right, node.kind)}`;
    // && binds tighter than ||: only an || inside an && needs parentheses.
    return parent === 'and' && node.kind === 'or' ? `(${text})` : text;
  };
  const text = expression(tree, null);
  const criteriaOf = (t: Threshold): AlertCriteria => ({
    ...(t.op === '>' || t.op === '>=' ? { type: 'above' as const, above_value: t.value } : { type: 'below' as const, below_value: t.value }),
    ...(timePeriod ? { time_period: timePeriod } : {}),
  });
  const [first, ...others] = thresholds;
  const composed: ComposedCriteria = {
    metric: first!.metric,
    alert_criteria: criteriaOf(first!),
    inclusive: thresholds.some((t) => t.op === '>=' || t.op === '<='),
  };
  if (others.length > 0) {
    composed.additional_criteria = Object.fromEntries(others.map((t, i) => [LETTERS[i + 1]!, { ...criteriaOf(t), metric: t.metric }]));
    composed.expression = text;
  }
  return composed;
}

/** One threshold as a tree. */
export function single(threshold: Threshold): ThresholdTree {
  return { kind: 'threshold', threshold };
}
