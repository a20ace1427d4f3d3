/**
 * Enough of graphite-web's target grammar to find what a query reads: the metric paths (top level, as arguments
 * of function calls, before a `|` pipe) and the tag expressions of `seriesByTag`. Strings, numbers, booleans and
 * keyword arguments are told apart from paths as graphite-web's grammar does; a path's `{a,b}` keeps its comma.
 */

/** What a target reads. */
export interface TargetReads {
  /** Metric path patterns, in order of appearance. */
  paths: string[];
  /** The string arguments of each seriesByTag call, e.g. [['name=cpu', 'dc=eu']]. */
  tagQueries: string[][];
  /** Every function called, by name. */
  functions: string[];
}

/** A target the reader cannot follow, with the 0-based position where it stopped. */
export class TargetSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'TargetSyntaxError';
  }
}

/** Calls nested deeper than this are refused: no real query needs it, and the reader recurses per level. */
const MAX_DEPTH = 64;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_.]*/y;
const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;

/** The paths, tag queries and functions of a Graphite target. Throws TargetSyntaxError when it cannot follow it. */
export function readTarget(target: string): TargetReads {
  const reads: TargetReads = { paths: [], tagQueries: [], functions: [] };
  let i = 0;

  const skipSpaces = () => {
    while (i < target.length && (target[i] === ' ' || target[i] === '\t')) i += 1;
  };
  const fail = (message: string): never => {
    throw new TargetSyntaxError(message, i);
  };
  const match = (re: RegExp): string | null => {
    re.lastIndex = i;
    const found = re.exec(target);
    return found ? found[0] : null;
  };

  // expression := (call | path) ('|' call)*
  const expression = (depth: number) => {
    if (depth > MAX_DEPTH) fail(`calls are nested more than ${MAX_DEPTH} deep`);
    skipSpaces();
    const name = match(IDENTIFIER);
    if (name !== null && target[i + name.length] === '(') call(depth, name);
    else path();
    skipSpaces();
    while (target[i] === '|') {
      i += 1;
      skipSpaces();
      const piped = match(IDENTIFIER);
      if (piped === null || target[i + piped.length] !== '(') fail('"|" must be followed by a function call');
      call(depth, piped!);
      skipSpaces();
    }
  };

  const call = (depth: number, name: string) => {
    reads.functions.push(name);
    i += name.length + 1;
    const strings: string[] = [];
    skipSpaces();
    if (target[i] === ')') {
      i += 1;
    } else {
      for (;;) {
        argument(depth, strings);
        skipSpaces();
        if (target[i] === ',') {
          i += 1;
          continue;
        }
        if (target[i] === ')') {
          i += 1;
          break;
        }
        fail(`expected "," or ")" in the arguments of ${name}`);
      }
    }
    if (name === 'seriesByTag') reads.tagQueries.push(strings);
  };

  // argument := name '=' value | string | number | boolean | expression
  const argument = (depth: number, strings: string[]) => {
    skipSpaces();
    const keyword = match(/[A-Za-z_][A-Za-z0-9_]*\s*=(?![=~])/y);
    if (keyword !== null) i += keyword.length;
    skipSpaces();
    const ch = target[i];
    if (ch === '"' || ch === "'") {
      strings.push(quoted(ch));
      return;
    }
    const literal = match(/(?:true|false|True|False|None|null)(?=\s*[,)])/y) ?? match(NUMBER);
    if (literal !== null && /^\s*[,)]/.test(target.slice(i + literal.length, i + literal.length + 32))) {
      i += literal.length;
      return;
    }
    expression(depth + 1);
  };

  const quoted = (quote: string): string => {
    const start = i;
    i += 1;
    let value = '';
    while (i < target.length && target[i] !== quote) {
      if (target[i] === '\\' && i + 1 < target.length) i += 1;
      value += target[i];
      i += 1;
    }
    if (i >= target.length) {
      i = start;
      fail('string is never closed');
    }
    i += 1;
    return value;
  };

  // A path runs to a separator outside braces and brackets: "," and ")" end it, "{a,b}" and "[,]" do not.
  const path = () => {
    const start = i;
    let braces = 0;
    let bracket = false;
    while (i < target.length) {
      const ch = target[i]!;
      if (bracket) {
        if (ch === ']') bracket = false;
      } else if (ch === '[') {
        bracket = true;
      } else if (ch === '{') {
        braces += 1;
      } else if (ch === '}') {
        if (braces === 0) break;
        braces -= 1;
      } else if (braces === 0 && (ch === ',' || ch === ')' || ch === '|' || ch === ' ' || ch === '(' || ch === '"' || ch === "'")) {
        break;
      }
      i += 1;
    }
    if (i === start) fail('expected a metric path or a function call');
    reads.paths.push(target.slice(start, i));
  };

  expression(0);
  skipSpaces();
  if (i < target.length) fail(`unexpected "${target[i]}"`);
  return reads;
}

/**
 * Whether a target calls a function: a `(` after a name (`sumSeries(`, `scale (`). What the regular expression
 * /[A-Za-z_][A-Za-z0-9_]*\s*\(/ says, in one pass: that expression, unanchored, took time quadratic in the length of
 * a long name without a parenthesis (35 ms for 4,096 letters, several times per request).
 */
export function callsFunction(target: string): boolean {
  for (let open = target.indexOf('('); open !== -1; open = target.indexOf('(', open + 1)) {
    let i = open - 1;
    while (i >= 0 && /\s/.test(target[i]!)) i -= 1;
    // The word right before: it names a function when any of its characters may start a name.
    for (; i >= 0 && /[A-Za-z0-9_]/.test(target[i]!); i -= 1) if (/[A-Za-z_]/.test(target[i]!)) return true;
  }
  return false;
}
