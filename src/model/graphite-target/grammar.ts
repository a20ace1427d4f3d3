/**
 * graphite-web's target grammar (graphite/render/grammar_unsafe.py, graphite-web 1.1.8), ported rule for rule with
 * the pyparsing behaviour it relies on, so that alertform reads a target exactly as graphite-web will:
 *
 * - ordered choice that never backtracks into an alternative once it matched (`sumSeries(true.x)` is the path
 *   `sumSeries`: `true` is taken as a boolean, the call then fails, and the top level falls back to a path);
 * - whitespace (space, tab, CR, LF) skipped before tokens, never inside a path, a number or a string;
 * - tabs expanded to 8-column stops first (parseString does that);
 * - parseString without parseAll: graphite-web evaluates the longest prefix it can parse and ignores the rest,
 *   which `consumed` reports.
 *
 * `[`, `]`, `*`, `?`, `=`, `+`, `$`, `/`, `;` and every other printable ASCII character outside `(){},.'"\|` are
 * ordinary path characters: `[` has no meaning across `,`, so `f(a[,b])` reads the paths `a[` and `b]`.
 * Literals are only what the grammar says: `-?\d+`, `-?\d+\.\d+`, those with `e<int>` (followed by `,`, `)` or the
 * end of a line), caseless true/false/none/inf keywords, quoted strings. `null`, `+5` and `1e+5` are paths.
 * test/graphite-reads.py runs graphite-web's own parser; test/security/metric-prefix-differential.test.ts compares.
 */

export interface PathNode {
  kind: 'path';
  /** The path as graphite-web fetches it: escapes (`\,`) resolved, braces kept. */
  path: string;
  /** Whether it was written with backslash escapes. */
  escaped: boolean;
  start: number;
  end: number;
}

export interface CallNode {
  kind: 'call';
  name: string;
  args: ArgNode[];
  kwargs: KwargNode[];
  /** The call's text as graphite-web keeps it (seriesByTag is fetched by this text). */
  raw: string;
  start: number;
  end: number;
}

/** `template(expr, literals...)`, the only form graphite-web expands (`template(...)` otherwise is a plain call). */
export interface TemplateNode {
  kind: 'template';
  inner: CallNode | PathNode;
  args: ArgNode[];
  kwargs: KwargNode[];
  start: number;
  end: number;
}

export interface ExpressionNode {
  kind: 'expression';
  head: CallNode | PathNode | TemplateNode;
  /** Calls after `|`, each given the expression before it as first argument. */
  pipes: CallNode[];
  start: number;
  end: number;
}

export type LiteralNode =
  | { kind: 'boolean'; value: boolean; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'none'; text: string }
  | { kind: 'infinity'; text: string }
  /** `text` with its quotes; graphite-web takes `text.slice(1, -1)` as the value, escapes untouched. */
  | { kind: 'string'; text: string };

export type ArgNode = LiteralNode | ExpressionNode;

export interface KwargNode {
  name: string;
  value: ArgNode;
}

/** What graphite-web's parseString makes of a target. */
export interface ParsedTarget {
  expression: ExpressionNode;
  /** The text after tab expansion (positions refer to it). */
  text: string;
  /** How much of `text` the grammar took; graphite-web ignores what follows. */
  consumed: number;
  /** The farthest point where a rule failed and why, for messages. */
  farthest: { position: number; message: string } | null;
}

/** Calls nested deeper than this are not parsed (graphite-web itself would hit Python's recursion limit). */
export const MAX_NESTING = 64;

const WHITESPACE = ' \n\t\r';
/** pyparsing's `symbols` in the grammar: these end a path element unless escaped with a backslash. */
const SYMBOLS = `(){},.'"\\|`;
const KEYWORD_CHAR = /^[A-Z0-9_$]$/;
const FUNCNAME = /[A-Za-z_][A-Za-z0-9_]*/y;
// Python's \d is any Unicode decimal digit.
const INT = /-?\p{Nd}+/uy;
const FLOAT = /-?\p{Nd}+\.\p{Nd}+/uy;
const DOUBLE_QUOTED = /"(?:[^"\n\r\\]|(?:"")|(?:\\(?:[^x]|x[0-9a-fA-F]+)))*/y;
const SINGLE_QUOTED = /'(?:[^'\n\r\\]|(?:'')|(?:\\(?:[^x]|x[0-9a-fA-F]+)))*/y;

/** Path characters of graphite-web with UTF8_METRICS off (its default): printable ASCII but the symbols. */
const METRIC_RUN = /[!#-&*+\-/-[\]-z~]+/y;
/** What a backslash may escape in a path. */
const ESCAPABLE = `${SYMBOLS}=`;

/** Python's str.expandtabs(): tabs to spaces up to the next multiple of 8, columns restart after CR and LF. */
export function expandTabs(text: string): string {
  if (!text.includes('\t')) return text;
  let out = '';
  let column = 0;
  for (const ch of text) {
    if (ch === '\t') {
      const spaces = 8 - (column % 8);
      out += ' '.repeat(spaces);
      column += spaces;
    } else {
      out += ch;
      column = ch === '\n' || ch === '\r' ? 0 : column + 1;
    }
  }
  return out;
}

const RULE_ARG = 0;
const RULE_KWARG = 1;

type Result<T> = { end: number; node: T } | null;

/**
 * Parses a target as graphite-web's grammar does. Returns null when not even its start parses (graphite-web
 * answers 400); otherwise what it reads, and how far (see `consumed`).
 */
export function parseGraphiteTarget(target: string): ParsedTarget | null {
  const s = expandTabs(target);
  // pyparsing tries the lookahead `~kwarg` and then the rule itself at the same places: memoising arguments and
  // keyword arguments by position keeps this linear where graphite-web's parser is exponential in the nesting.
  const memo = new Map<number, Result<unknown>>();
  let farthest: { position: number; message: string } | null = null;
  const fail = (position: number, message: string): null => {
    if (farthest === null || position > farthest.position) farthest = { position, message };
    return null;
  };
  let nesting = 0;

  const skip = (i: number): number => {
    while (i < s.length && WHITESPACE.includes(s[i]!)) i += 1;
    return i;
  };
  const sticky = (re: RegExp, i: number): string | null => {
    re.lastIndex = i;
    const found = re.exec(s);
    return found ? found[0] : null;
  };
  const memoised = <T>(rule: number, i: number, parse: () => Result<T>): Result<T> => {
    const key = i * 2 + rule;
    if (memo.has(key)) return memo.get(key) as Result<T>;
    const result = parse();
    memo.set(key, result);
    return result;
  };

  // CaselessKeyword: the word in any case, not touching a keyword character on either side.
  const keyword = (word: string, i: number): number => {
    // An ASCII first letter that differs settles it cheaply; other characters may upper-case to ASCII ('ı' is 'I').
    const first = s.charCodeAt(i);
    if (Number.isNaN(first) || (first < 128 && (first | 32) !== (word.charCodeAt(0) | 32))) return -1;
    const text = s.slice(i, i + word.length);
    if (text.length < word.length || text.toUpperCase() !== word) return -1;
    if (i > 0 && KEYWORD_CHAR.test(s[i - 1]!.toUpperCase())) return -1;
    const next = s[i + word.length];
    if (next !== undefined && KEYWORD_CHAR.test(next.toUpperCase())) return -1;
    return i + word.length;
  };

  // afterNumber: FollowedBy(",") ^ FollowedBy(")") ^ FollowedBy(LineEnd()).
  const afterNumber = (i: number): boolean => {
    const j = skip(i);
    if (s[j] === ',' || s[j] === ')') return true;
    let k = i;
    while (k < s.length && ' \t\r'.includes(s[k]!)) k += 1;
    return k === s.length || s[k] === '\n';
  };

  // number: (sci | float | int) followed by afterNumber, tried in that order.
  const number = (i: number): Result<LiteralNode> => {
    const mantissa = sticky(FLOAT, i) ?? sticky(INT, i);
    if (mantissa !== null && (s[i + mantissa.length] === 'e' || s[i + mantissa.length] === 'E')) {
      const exponent = sticky(INT, i + mantissa.length + 1);
      if (exponent !== null) {
        const end = i + mantissa.length + 1 + exponent.length;
        // CaselessLiteral('e') yields 'e' whatever the case written.
        if (afterNumber(end)) return { end, node: { kind: 'number', text: `${mantissa}e${exponent}` } };
      }
    }
    const float = sticky(FLOAT, i);
    if (float !== null && afterNumber(i + float.length)) return { end: i + float.length, node: { kind: 'number', text: float } };
    const int = sticky(INT, i);
    if (int !== null && afterNumber(i + int.length)) return { end: i + int.length, node: { kind: 'number', text: int } };
    return null;
  };

  const quotedString = (i: number): Result<LiteralNode> => {
    const quote = s[i];
    if (quote !== '"' && quote !== "'") return null;
    const body = sticky(quote === '"' ? DOUBLE_QUOTED : SINGLE_QUOTED, i)!;
    const end = i + body.length;
    if (s[end] !== quote) return fail(i, 'string is never closed');
    return { end: end + 1, node: { kind: 'string', text: s.slice(i, end + 1) } };
  };

  // partialPathElem: one or more of (backslash + symbol or "=") and runs of metric characters.
  const partialPathElem = (i: number): { end: number; text: string; escaped: boolean } | null => {
    let j = i;
    let text = '';
    let escaped = false;
    for (;;) {
      const run = sticky(METRIC_RUN, j);
      if (run !== null) {
        text += run;
        j += run.length;
      } else if (s[j] === '\\' && j + 1 < s.length && ESCAPABLE.includes(s[j + 1]!)) {
        text += s[j + 1];
        escaped = true;
        j += 2;
      } else {
        break;
      }
    }
    return j === i ? null : { end: j, text, escaped };
  };

  // matchEnum: "{" partialPathElem ("," partialPathElem)* "}", kept as written.
  const matchEnum = (i: number): { end: number; text: string; escaped: boolean } | null => {
    if (s[i] !== '{') return null;
    const first = partialPathElem(i + 1);
    if (first === null) return null;
    let text = `{${first.text}`;
    let escaped = first.escaped;
    let j = first.end;
    while (s[j] === ',') {
      const more = partialPathElem(j + 1);
      if (more === null) break;
      text += `,${more.text}`;
      escaped ||= more.escaped;
      j = more.end;
    }
    if (s[j] !== '}') return null;
    return { end: j + 1, text: `${text}}`, escaped };
  };

  // pathElement: (partialPathElem | matchEnum) then any number of either; pathExpression: elements joined by ".".
  const pathElement = (i: number): { end: number; text: string; escaped: boolean } | null => {
    let part = partialPathElem(i) ?? matchEnum(i);
    if (part === null) return null;
    let { end, text, escaped } = part;
    while ((part = matchEnum(end) ?? partialPathElem(end)) !== null) {
      end = part.end;
      text += part.text;
      escaped ||= part.escaped;
    }
    return { end, text, escaped };
  };

  const pathExpression = (i: number): Result<PathNode> => {
    const first = pathElement(i);
    if (first === null) return fail(i, 'expected a metric path or a function call');
    let { end, text, escaped } = first;
    while (s[end] === '.') {
      const next = pathElement(end + 1);
      if (next === null) break;
      end = next.end;
      text += `.${next.text}`;
      escaped ||= next.escaped;
    }
    return { end, node: { kind: 'path', path: text, escaped, start: i, end } };
  };

  // arg: boolean | number | none | string | infinity | expression (whitespace skipped first).
  const arg = (at: number): Result<ArgNode> =>
    memoised<ArgNode>(RULE_ARG, at, () => {
      const i = skip(at);
      for (const word of ['TRUE', 'FALSE']) {
        const end = keyword(word, i);
        if (end !== -1) return { end, node: { kind: 'boolean', value: word === 'TRUE', text: s.slice(i, end) } };
      }
      const num = number(i);
      if (num !== null) return num;
      const none = keyword('NONE', i);
      if (none !== -1) return { end: none, node: { kind: 'none', text: s.slice(i, none) } };
      if (s[i] === '"' || s[i] === "'") {
        const str = quotedString(i);
        if (str !== null) return str;
      }
      const inf = keyword('INF', i);
      if (inf !== -1) return { end: inf, node: { kind: 'infinity', text: s.slice(i, inf) } };
      return expression(i);
    });

  // kwarg: argname "=" arg (whitespace allowed around "=").
  const kwarg = (at: number): Result<KwargNode> =>
    memoised<KwargNode>(RULE_KWARG, at, () => {
      const i = skip(at);
      const name = sticky(FUNCNAME, i);
      if (name === null) return null;
      const equal = skip(i + name.length);
      if (s[equal] !== '=') return null;
      const value = arg(equal + 1);
      return value === null ? null : { end: value.end, node: { name, value: value.node } };
    });

  // call: funcname "(" [args ["," kwargs]] ")"; args never start with something that parses as a kwarg.
  const call = (at: number): Result<CallNode> => {
    const start = skip(at);
    const name = sticky(FUNCNAME, start);
    if (name === null) return null;
    let i = skip(start + name.length);
    if (s[i] !== '(') return null;
    if (nesting >= MAX_NESTING) return fail(i, `calls are nested more than ${MAX_NESTING} deep`);
    nesting += 1;
    try {
      i += 1;
      const args: ArgNode[] = [];
      const kwargs: KwargNode[] = [];
      const positional = (j: number) => (kwarg(j) === null ? arg(j) : null);
      const firstArg = positional(i);
      if (firstArg !== null) {
        args.push(firstArg.node);
        i = firstArg.end;
        for (;;) {
          const comma = skip(i);
          if (s[comma] !== ',') break;
          const next = positional(comma + 1);
          if (next === null) break;
          args.push(next.node);
          i = next.end;
        }
        const comma = skip(i);
        const firstKw = s[comma] === ',' ? kwarg(comma + 1) : null;
        if (firstKw !== null) {
          kwargs.push(firstKw.node);
          i = firstKw.end;
          for (;;) {
            const more = skip(i);
            if (s[more] !== ',') break;
            const next = kwarg(more + 1);
            if (next === null) break;
            kwargs.push(next.node);
            i = next.end;
          }
        }
      }
      const close = skip(i);
      if (s[close] !== ')') return fail(close, `expected "," or ")" in the arguments of ${name}`);
      const end = close + 1;
      return { end, node: { kind: 'call', name, args, kwargs, raw: s.slice(start, end), start, end } };
    } finally {
      nesting -= 1;
    }
  };

  // litarg: number | string; template's own arguments.
  const litarg = (at: number): Result<ArgNode> => {
    const i = skip(at);
    return number(i) ?? quotedString(i);
  };
  const litkwarg = (at: number): Result<KwargNode> => {
    const i = skip(at);
    const name = sticky(FUNCNAME, i);
    if (name === null) return null;
    const equal = skip(i + name.length);
    if (s[equal] !== '=') return null;
    const value = litarg(equal + 1);
    return value === null ? null : { end: value.end, node: { name, value: value.node } };
  };

  // template: "template" "(" (call | pathExpression) ["," (litargs | litkwargs)] ")".
  const template = (start: number): Result<TemplateNode> => {
    if (!s.startsWith('template', start)) return null;
    let i = skip(start + 'template'.length);
    if (s[i] !== '(') return null;
    i += 1;
    const inner: Result<CallNode | PathNode> = call(i) ?? pathExpression(skip(i));
    if (inner === null) return null;
    i = inner.end;
    const args: ArgNode[] = [];
    const kwargs: KwargNode[] = [];
    const comma = skip(i);
    if (s[comma] === ',') {
      const positional = (j: number) => (litkwarg(j) === null ? litarg(j) : null);
      const first = positional(comma + 1);
      if (first !== null) {
        args.push(first.node);
        i = first.end;
        for (;;) {
          const more = skip(i);
          const next = s[more] === ',' ? positional(more + 1) : null;
          if (next === null) break;
          args.push(next.node);
          i = next.end;
        }
      } else {
        const firstKw = litkwarg(comma + 1);
        if (firstKw !== null) {
          kwargs.push(firstKw.node);
          i = firstKw.end;
          for (;;) {
            const more = skip(i);
            const next = s[more] === ',' ? litkwarg(more + 1) : null;
            if (next === null) break;
            kwargs.push(next.node);
            i = next.end;
          }
        }
      }
    }
    const close = skip(i);
    if (s[close] !== ')') return null;
    return { end: close + 1, node: { kind: 'template', inner: inner.node, args, kwargs, start, end: close + 1 } };
  };

  // expression: (template | call | pathExpression) ("|" call)*.
  const expression = (at: number): Result<ExpressionNode> => {
    const start = skip(at);
    const head: Result<CallNode | PathNode | TemplateNode> = template(start) ?? call(start) ?? pathExpression(start);
    if (head === null) return null;
    let end = head.end;
    const pipes: CallNode[] = [];
    for (;;) {
      const bar = skip(end);
      if (s[bar] !== '|') break;
      const piped = call(bar + 1);
      if (piped === null) {
        fail(skip(bar + 1), '"|" must be followed by a function call');
        break;
      }
      pipes.push(piped.node);
      end = piped.end;
    }
    return { end, node: { kind: 'expression', head: head.node, pipes, start, end } };
  };

  const top = expression(0);
  if (top === null) return null;
  return { expression: top.node, text: s, consumed: top.end, farthest };
}
