/**
 * Graphite path patterns. Plain paths and wildcards (`*`, `?`, `[...]`, `{a,b}`) can share one render request,
 * because every series Graphite returns for them is named by its expanded path, so the series can be matched
 * back to the pattern that produced it. Anything with a function call, quotes, spaces or tags cannot: its series
 * are named by whatever the function prints, so such targets are sent alone.
 */

const BATCHABLE = /^[A-Za-z0-9_\-.*?[\]{},:~^@%#$=+!]+$/;

/** Whether a target may share a render request with others (a plain path or wildcard, no function or tag). */
export function isBatchableTarget(target: string): boolean {
  return BATCHABLE.test(target) && !target.includes(';');
}

/** A regular expression matching the series names a plain or wildcard Graphite pattern expands to. */
export function compileGraphitePattern(pattern: string): RegExp {
  let source = '';
  let inBraces = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i]!;
    if (ch === '*') source += '[^.]*';
    else if (ch === '?') source += '[^.]';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end === -1) {
        source += '\\[';
      } else {
        const body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        source += body.startsWith('!') ? `[^${body.slice(1)}]` : `[${body}]`;
        i = end;
      }
    } else if (ch === '{') {
      inBraces += 1;
      source += '(?:';
    } else if (ch === '}' && inBraces > 0) {
      inBraces -= 1;
      source += ')';
    } else if (ch === ',' && inBraces > 0) source += '|';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  if (inBraces > 0) return new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return new RegExp(`^${source}$`);
}
