/**
 * How big a parsed YAML value is once its aliases are expanded. Both parsers return an alias as the very object
 * its anchor made, so parsing a "billion laughs" file is cheap; what explodes is any later walk over it (the
 * `${VAR}` interpolation copies it, the schema check visits it). Counting with one memo per object costs the
 * value's physical size, whatever the expansion.
 */
export function expandedSize(value: unknown, limit: number): { expanded: number; physical: number } {
  const memo = new Map<object, number>();
  let physical = 0;
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = memo.get(node);
    if (known !== undefined) return known;
    const children = Array.isArray(node) ? node : Object.values(node);
    physical += 1 + children.length;
    let total = 1;
    for (const child of children) {
      total += size(child);
      // Past the limit the exact figure no longer matters: stop adding before the numbers themselves explode.
      if (total > limit) break;
    }
    memo.set(node, total);
    return total;
  };
  return { expanded: size(value), physical };
}

/** Nodes aliases may add beyond the document's own size: room for any sane reuse, none for a bomb. */
export const ALIAS_ALLOWANCE = 10_000;

/** Whether a document's aliases expand it beyond its own size plus twice that plus ALIAS_ALLOWANCE nodes. */
export function isAliasBomb(value: unknown): boolean {
  // A first pass with a generous limit gives the physical size; the bound then scales with the document.
  const { expanded, physical } = expandedSize(value, Number.MAX_SAFE_INTEGER / 4);
  return expanded > 3 * physical + ALIAS_ALLOWANCE;
}

/**
 * Whether a YAML text may hold an alias: it needs an anchor (`&name`) and a `*` where a node can begin (at the
 * start, after whitespace, or after `[`, `{`, `,` or `:`). Conservative: `*` inside a metric (`servers.*.cpu`) and
 * `&&` in an expression are the usual text of a large repository that has no alias, and either alone answers no;
 * `a * b` in a plain string answers yes, which only costs the walks this spares.
 */
export function mayHoldAlias(text: string): boolean {
  return text.includes('&') && /(?:^|[\s[{,:])\*/.test(text);
}
