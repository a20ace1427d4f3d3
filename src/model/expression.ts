import { AlertformError } from './errors.js';

/**
 * The composite-alert expression language: criteria letters, `&&`, `||` and parentheses, `&&` binding tighter
 * than `||`, letters case-insensitive. One parser serves the server's validation, the evaluator and the planner.
 */
export type Expression =
  | { kind: 'letter'; letter: string }
  | { kind: 'and' | 'or'; left: Expression; right: Expression };

export class ExpressionError extends AlertformError {
  constructor(
    message: string,
    /** 0-based offset in the source where the problem is. */
    readonly position: number,
  ) {
    super('invalid_expression', message);
  }
}

type Token = { type: 'letter' | '&&' | '||' | '(' | ')'; value: string; position: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i += 1;
    } else if (/[A-Za-z]/.test(ch)) {
      if (i + 1 < source.length && /[A-Za-z]/.test(source[i + 1]!)) {
        throw new ExpressionError(`criteria are single letters; found "${source.slice(i).match(/^[A-Za-z]+/)![0]}"`, i);
      }
      tokens.push({ type: 'letter', value: ch.toLowerCase(), position: i });
      i += 1;
    } else if (source.startsWith('&&', i) || source.startsWith('||', i)) {
      tokens.push({ type: source.slice(i, i + 2) as '&&' | '||', value: source.slice(i, i + 2), position: i });
      i += 2;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch, value: ch, position: i });
      i += 1;
    } else {
      throw new ExpressionError(`unexpected "${ch}"; use letters, &&, || and parentheses`, i);
    }
  }
  return tokens;
}

/** Parses an expression; throws ExpressionError with the offending position. */
export function parseExpression(source: string): Expression {
  const tokens = tokenize(source);
  let index = 0;
  const peek = () => tokens[index];
  const fail = (message: string): never => {
    throw new ExpressionError(message, peek()?.position ?? source.length);
  };

  const parseOr = (): Expression => {
    let left = parseAnd();
    while (peek()?.type === '||') {
      index += 1;
      left = { kind: 'or', left, right: parseAnd() };
    }
    return left;
  };
  const parseAnd = (): Expression => {
    let left = parseAtom();
    while (peek()?.type === '&&') {
      index += 1;
      left = { kind: 'and', left, right: parseAtom() };
    }
    return left;
  };
  const parseAtom = (): Expression => {
    const token = peek();
    if (!token) return fail('expression ends too early');
    if (token.type === 'letter') {
      index += 1;
      return { kind: 'letter', letter: token.value };
    }
    if (token.type === '(') {
      index += 1;
      const inner = parseOr();
      if (peek()?.type !== ')') fail('missing ")"');
      index += 1;
      return inner;
    }
    return fail(`unexpected "${token.value}"`);
  };

  const tree = parseOr();
  if (index < tokens.length) fail(`unexpected "${tokens[index]!.value}"`);
  return tree;
}

/** The distinct letters an expression uses, sorted. */
export function expressionLetters(expression: Expression): string[] {
  const letters = new Set<string>();
  const walk = (node: Expression) => {
    if (node.kind === 'letter') letters.add(node.letter);
    else {
      walk(node.left);
      walk(node.right);
    }
  };
  walk(expression);
  return [...letters].sort();
}

/** Evaluates an expression given each letter's truth. A letter without a value counts as false. */
export function evaluateExpression(expression: Expression, values: Readonly<Record<string, boolean>>): boolean {
  switch (expression.kind) {
    case 'letter':
      return values[expression.letter] === true;
    case 'and':
      return evaluateExpression(expression.left, values) && evaluateExpression(expression.right, values);
    case 'or':
      return evaluateExpression(expression.left, values) || evaluateExpression(expression.right, values);
  }
}

/**
 * The canonical text of an expression: lower-case letters, single spaces around operators, parentheses only
 * where precedence needs them. Two expressions that mean the same by structure print the same, so stored and
 * desired forms compare equal (`A&&(b)` and `a && b` are both `a && b`).
 */
export function formatExpression(expression: Expression): string {
  const format = (node: Expression, parent: 'and' | 'or' | 'top'): string => {
    if (node.kind === 'letter') return node.letter;
    const text = `${format(node.left, node.kind)} ${node.kind === 'and' ? '&&' : '||'} ${format(node.right, node.kind)}`;
    // Only `||` inside `&&` needs parentheses; `a && (b && c)` and `a && b && c` mean, and print, the same.
    return node.kind === 'or' && parent === 'and' ? `(${text})` : text;
  };
  return format(expression, 'top');
}

/** Canonical texts already computed: a large plan has thousands of alerts but a handful of distinct expressions. */
const canonicalCache = new Map<string, string>();
const CANONICAL_CACHE_LIMIT = 1000;

/** Parses and formats in one step: the canonical text of a source expression. */
export function canonicalExpression(source: string): string {
  const cached = canonicalCache.get(source);
  if (cached !== undefined) return cached;
  const canonical = formatExpression(parseExpression(source));
  if (canonicalCache.size >= CANONICAL_CACHE_LIMIT) canonicalCache.clear();
  canonicalCache.set(source, canonical);
  return canonical;
}
