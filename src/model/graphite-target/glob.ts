/**
 * Graphite path patterns. Plain paths and wildcards (`*`, `?`, `[...]`, `{a,b}`) can share one render request,
 * because every series Graphite returns for them is named by its expanded path, so the series can be matched
 * back to the pattern that produced it. Anything with a function call, quotes, spaces or tags cannot: its series
 * are named by whatever the function prints, so such targets are sent alone.
 *
 * Patterns come from tenants, so they are never turned into regular expressions (a backtracking engine takes
 * exponential time on `*a*a*a*a*…b` against a long name). They compile to a small automaton that is run over a
 * name keeping the set of states it may be in: time is at most the name's length times the pattern's, always.
 */

const BATCHABLE = /^[A-Za-z0-9_\-.*?[\]{},:~^@%#$=+!]+$/;

/** Whether a target may share a render request with others (a plain path or wildcard, no function or tag). */
export function isBatchableTarget(target: string): boolean {
  return BATCHABLE.test(target) && !target.includes(';');
}

/** A malformed pattern, with the 0-based character position where it goes wrong. */
export class GlobSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'GlobSyntaxError';
  }
}

/** Tests series names against one compiled pattern (the shape of RegExp#test, which it replaces). */
export interface GraphiteMatcher {
  test(name: string): boolean;
}

const BRACKETS = /[[{}]/;

/** What is wrong with a pattern's wildcards (`[z-a]`, an unclosed `[` or `{`), or null when it is well formed. */
export function checkGraphitePattern(pattern: string): string | null {
  // Only brackets and braces can be malformed: most paths have neither, and need no parse.
  if (!BRACKETS.test(pattern)) return null;
  try {
    parsePattern(pattern);
    return null;
  } catch (error) {
    if (!(error instanceof GlobSyntaxError)) throw error;
    return `${error.message} (at character ${error.position + 1})`;
  }
}

/**
 * A matcher of the series names a plain or wildcard Graphite pattern expands to. `*`, `?` and classes never match
 * a dot, so they stay within one path segment. Throws GlobSyntaxError for a malformed pattern.
 */
export function compileGraphitePattern(pattern: string): GraphiteMatcher {
  const states = buildAutomaton(parsePattern(pattern));
  return { test: (name) => runAutomaton(states, name) };
}

// ---- parsing: pattern text to a small tree ----

type Node =
  | { kind: 'char'; code: number }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'class'; negated: boolean; ranges: [number, number][] }
  | { kind: 'alt'; options: Node[][] };

const DOT = 46;

function parsePattern(pattern: string): Node[] {
  let i = 0;
  const parseSequence = (depth: number): Node[] => {
    const nodes: Node[] = [];
    while (i < pattern.length) {
      const ch = pattern[i]!;
      if (depth > 0 && (ch === ',' || ch === '}')) return nodes;
      if (ch === '}') throw new GlobSyntaxError('"}" without a matching "{"', i);
      if (ch === '*') {
        // Consecutive stars mean one star; collapsing them keeps the automaton small.
        if (nodes.at(-1)?.kind !== 'star') nodes.push({ kind: 'star' });
        i += 1;
      } else if (ch === '?') {
        nodes.push({ kind: 'any' });
        i += 1;
      } else if (ch === '[') {
        nodes.push(parseClass());
      } else if (ch === '{') {
        const open = i;
        i += 1;
        const options: Node[][] = [parseSequence(depth + 1)];
        while (pattern[i] === ',') {
          i += 1;
          options.push(parseSequence(depth + 1));
        }
        if (pattern[i] !== '}') throw new GlobSyntaxError('"{" is never closed', open);
        i += 1;
        nodes.push({ kind: 'alt', options });
      } else {
        nodes.push({ kind: 'char', code: pattern.charCodeAt(i) });
        i += 1;
      }
    }
    return nodes;
  };
  const parseClass = (): Node => {
    const open = i;
    i += 1;
    let negated = false;
    if (pattern[i] === '!' || pattern[i] === '^') {
      negated = true;
      i += 1;
    }
    const ranges: [number, number][] = [];
    // A "]" right after the opening bracket is a member, as in fnmatch.
    let first = true;
    while (i < pattern.length && (pattern[i] !== ']' || first)) {
      first = false;
      const low = pattern.charCodeAt(i);
      if (pattern[i + 1] === '-' && i + 2 < pattern.length && pattern[i + 2] !== ']') {
        const high = pattern.charCodeAt(i + 2);
        if (high < low) throw new GlobSyntaxError(`range "${pattern.slice(i, i + 3)}" is reversed`, i);
        ranges.push([low, high]);
        i += 3;
      } else {
        ranges.push([low, low]);
        i += 1;
      }
    }
    if (i >= pattern.length) throw new GlobSyntaxError('"[" is never closed', open);
    i += 1;
    return { kind: 'class', negated, ranges };
  };
  return parseSequence(0);
}

// ---- the automaton: Thompson's construction, simulated breadth-first over typed arrays ----

const MATCH = 0;
const CHAR = 1;
const ANY = 2;
const CLASS = 3;
const SPLIT = 4;

interface Automaton {
  /** Per state: MATCH, CHAR (arg: the char code), ANY, CLASS (arg: index in classes) or SPLIT (arg: index in splits). */
  op: Uint8Array;
  arg: Int32Array;
  /** The state a consuming state moves to. */
  next: Int32Array;
  classes: ((code: number) => boolean)[];
  splits: number[][];
  splitEdges: number;
  start: number;
}

function buildAutomaton(nodes: Node[]): Automaton {
  const ops: number[] = [MATCH];
  const args: number[] = [0];
  const nexts: number[] = [0];
  const classes: ((code: number) => boolean)[] = [];
  const splits: number[][] = [];
  const add = (op: number, arg: number, next: number) => {
    ops.push(op);
    args.push(arg);
    nexts.push(next);
    return ops.length - 1;
  };
  // Built back to front: each node is compiled knowing the state that follows it.
  const emitSequence = (sequence: Node[], next: number): number => {
    for (let k = sequence.length - 1; k >= 0; k -= 1) next = emit(sequence[k]!, next);
    return next;
  };
  const emit = (node: Node, next: number): number => {
    switch (node.kind) {
      case 'char':
        return add(CHAR, node.code, next);
      case 'any':
        return add(ANY, 0, next);
      case 'class': {
        const { negated, ranges } = node;
        classes.push((code) => code !== DOT && ranges.some(([low, high]) => code >= low && code <= high) !== negated);
        return add(CLASS, classes.length - 1, next);
      }
      case 'star': {
        const targets: number[] = [];
        splits.push(targets);
        const loop = add(SPLIT, splits.length - 1, 0);
        targets.push(add(ANY, 0, loop), next);
        return loop;
      }
      case 'alt': {
        const targets = node.options.map((option) => emitSequence(option, next));
        splits.push(targets);
        return add(SPLIT, splits.length - 1, 0);
      }
    }
  };
  const start = emitSequence(nodes, 0);
  return {
    op: Uint8Array.from(ops),
    arg: Int32Array.from(args),
    next: Int32Array.from(nexts),
    classes,
    splits,
    splitEdges: splits.reduce((sum, targets) => sum + targets.length, 0),
    start,
  };
}

function runAutomaton(automaton: Automaton, name: string): boolean {
  const { op, arg, next, classes, splits } = automaton;
  const size = op.length;
  // `seen[s] === generation` marks a state already in the set being built, so each step visits each state once.
  const seen = new Uint32Array(size);
  // A state can be pushed once per split edge leading to it before it is popped: size the stack for all of them.
  const stack = new Int32Array(size + automaton.splitEdges + 1);
  let current = new Int32Array(size);
  let following = new Int32Array(size);
  let generation = 1;
  const enter = (list: Int32Array, count: number, state: number): number => {
    let top = 0;
    stack[top++] = state;
    while (top > 0) {
      const s = stack[--top]!;
      if (seen[s] === generation) continue;
      seen[s] = generation;
      if (op[s] === SPLIT) {
        const targets = splits[arg[s]!]!;
        for (let k = targets.length - 1; k >= 0; k -= 1) if (seen[targets[k]!] !== generation) stack[top++] = targets[k]!;
      } else {
        list[count++] = s;
      }
    }
    return count;
  };
  let count = enter(current, 0, automaton.start);
  for (let i = 0; i < name.length && count > 0; i += 1) {
    const code = name.charCodeAt(i);
    generation += 1;
    let nextCount = 0;
    for (let k = 0; k < count; k += 1) {
      const s = current[k]!;
      const kind = op[s];
      const passes =
        kind === CHAR ? code === arg[s] : kind === ANY ? code !== DOT : kind === CLASS ? classes[arg[s]!]!(code) : false;
      if (passes) nextCount = enter(following, nextCount, next[s]!);
    }
    [current, following] = [following, current];
    count = nextCount;
  }
  for (let k = 0; k < count; k += 1) if (op[current[k]!] === MATCH) return true;
  return false;
}
