import { parseGraphiteTarget, type ArgNode, type CallNode, type ExpressionNode, type ParsedTarget, type PathNode } from './grammar.js';

/**
 * What a Graphite target reads, as graphite-web reads it: the target is parsed with graphite-web's own grammar
 * (./grammar.ts), so `[`, `null`, `+5` and `1e+5` mean here what they mean there.
 */

/** What a target reads. */
export interface TargetReads {
  /** Metric path patterns graphite-web fetches (escapes resolved), in order of appearance. */
  paths: string[];
  /** The string arguments of each seriesByTag call as graphite-web's tag database gets them, e.g. [['name=cpu', 'dc=eu']]. */
  tagQueries: string[][];
  /** Every function called, by name (`template` included). */
  functions: string[];
}

/** A target the grammar does not take whole, with the 0-based position where it stopped. */
export class TargetSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'TargetSyntaxError';
  }
}

/**
 * The parse of a target, whole: graphite-web would evaluate only the part its grammar takes and silently ignore
 * the rest, so a target it does not take entirely (trailing spaces aside) is a TargetSyntaxError.
 */
export function parseTarget(target: string): ParsedTarget {
  const parsed = parseGraphiteTarget(target);
  if (parsed === null) throw syntaxError(target, null, 0);
  const rest = parsed.text.slice(parsed.consumed);
  if (/[^ \n\t\r]/.test(rest)) throw syntaxError(parsed.text, parsed.farthest, parsed.consumed);
  return parsed;
}

function syntaxError(text: string, farthest: ParsedTarget['farthest'], consumed: number): TargetSyntaxError {
  if (farthest !== null && farthest.position >= consumed) return new TargetSyntaxError(farthest.message, farthest.position);
  const at = text.slice(consumed).search(/[^ \n\t\r]/) + consumed;
  return new TargetSyntaxError(at < text.length ? `unexpected "${text[at]}"` : 'expected a metric path or a function call', at);
}

/** Every call of an expression tree (heads, pipes, arguments, keyword values, template bodies), outermost first. */
export function* callsOf(expression: ExpressionNode): Generator<CallNode> {
  const head = expression.head;
  if (head.kind === 'call') yield* callTree(head);
  if (head.kind === 'template') {
    if (head.inner.kind === 'call') yield* callTree(head.inner);
  }
  for (const piped of expression.pipes) yield* callTree(piped);
}

function* callTree(call: CallNode): Generator<CallNode> {
  yield call;
  if (call.name === 'seriesByTag') return; // graphite-web fetches it by its text; its arguments are not evaluated
  for (const arg of [...call.args, ...call.kwargs.map((kw) => kw.value)]) if (arg.kind === 'expression') yield* callsOf(arg);
}

/** The metric paths an expression tree fetches, in order: heads, call arguments, keyword values, pipes. */
export function pathNodesOf(expression: ExpressionNode): PathNode[] {
  const paths: PathNode[] = [];
  const visit = (node: ExpressionNode) => {
    const head = node.head;
    if (head.kind === 'path') paths.push(head);
    else if (head.kind === 'template') {
      if (head.inner.kind === 'path') paths.push(head.inner);
      else visitCall(head.inner);
    } else visitCall(head);
    for (const piped of node.pipes) visitCall(piped);
  };
  const visitCall = (call: CallNode) => {
    if (call.name === 'seriesByTag') return; // fetched by its text (tagExpressionsOf), its arguments not evaluated
    for (const arg of [...call.args, ...call.kwargs.map((kw) => kw.value)]) if (arg.kind === 'expression') visit(arg);
  };
  visit(expression);
  return paths;
}

/** The tag expressions graphite-web's storage takes from a seriesByTag call: its quoted arguments, quotes cut. */
export function tagExpressionsOf(call: CallNode): string[] {
  return call.args.filter((arg): arg is Extract<ArgNode, { kind: 'string' }> => arg.kind === 'string').map((arg) => arg.text.slice(1, -1));
}

/** The paths, tag queries and functions of a Graphite target. Throws TargetSyntaxError when graphite-web would not take it whole. */
export function readTarget(target: string): TargetReads {
  const { expression } = parseTarget(target);
  const calls = [...callsOf(expression)];
  return {
    paths: pathNodesOf(expression).map((node) => node.path),
    tagQueries: calls.filter((call) => call.name === 'seriesByTag').map(tagExpressionsOf),
    functions: calls.map((call) => call.name),
  };
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
