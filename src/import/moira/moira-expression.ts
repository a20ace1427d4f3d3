/**
 * The shapes of Moira's advanced-mode expressions (govaluate) that map onto alertform's criteria: a chain of
 * `CONDITION ? STATE : ...` ending in OK, each condition comparisons of a target (`t1`) or a ratio of two
 * (`t1 / t2`) with a number, joined by `&&`, `||` and parentheses. Anything else (PREV_STATE, arithmetic beyond a
 * ratio, `==`, a NODATA result) is refused with the reason, and the trigger is reported as not imported.
 */

/** `t1` is target 1; `ratio` is `tN / tM`. */
export type Operand = { kind: 'target'; index: number } | { kind: 'ratio'; numerator: number; denominator: number };

export interface Comparison {
  kind: 'compare';
  operand: Operand;
  /** Normalised so that the operand is on the left. */
  op: '>' | '>=' | '<' | '<=';
  value: number;
}
export type Condition = Comparison | { kind: 'and' | 'or'; left: Condition; right: Condition };

/** One branch of the chain: when `condition` holds, the trigger is in `state`. */
export interface Branch {
  condition: Condition;
  state: 'WARN' | 'ERROR';
}

export type ParsedExpression = { ok: true; branches: Branch[] } | { ok: false; why: string };

type Token = { t: 'num'; v: number } | { t: 'id'; v: string } | { t: 'op'; v: string };

const MAX_EXPRESSION = 4096;

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(&&|\|\||>=|<=|==|!=|[-+*/()?:<>!]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return `cannot read "${text.slice(at, at + 20)}"`;
    at = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ t: 'num', v: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ t: 'id', v: m[2] });
    else tokens.push({ t: 'op', v: m[3]! });
  }
  return tokens;
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.t === 'op' && t.v === v;
  }
  private expectOp(v: string): void {
    if (!this.isOp(v)) throw new Error(`expected "${v}"${this.where()}`);
    this.at += 1;
  }
  private where(): string {
    const t = this.peek();
    return t ? ` at "${t.v}"` : ' at the end';
  }
  done(): boolean {
    return this.at >= this.tokens.length;
  }

  /** chain := condition '?' STATE ':' (chain | '(' chain ')' | 'OK') */
  chain(): Branch[] {
    const condition = this.or();
    this.expectOp('?');
    const state = this.state();
    this.expectOp(':');
    const branches: Branch[] = [];
    if (state === 'WARN' || state === 'ERROR') branches.push({ condition, state });
    else if (state !== 'OK') throw new Error(`the state ${state} has no alertform equivalent`);
    return [...branches, ...this.rest()];
  }

  private rest(): Branch[] {
    const t = this.peek();
    if (t?.t === 'id' && t.v.toUpperCase() === 'OK') {
      this.at += 1;
      return [];
    }
    if (t?.t === 'id' && t.v.toUpperCase() === 'PREV_STATE') throw new Error('PREV_STATE keeps the previous state: alertform has no such state memory');
    if (t?.t === 'id' && /^(WARN|WARNING|ERROR|NODATA)$/i.test(t.v)) throw new Error(`the last state must be OK, not ${t.v}: the trigger would never be healthy`);
    if (this.isOp('(')) {
      // Either a parenthesised chain or a parenthesised condition that starts the next chain link.
      const save = this.at;
      this.at += 1;
      try {
        const inner = this.chain();
        this.expectOp(')');
        return inner;
      } catch {
        this.at = save;
      }
    }
    return this.chain();
  }

  private state(): string {
    const t = this.peek();
    if (t?.t !== 'id') throw new Error(`expected a state (OK, WARN, ERROR)${this.where()}`);
    this.at += 1;
    const state = t.v.toUpperCase();
    if (state === 'WARNING') return 'WARN';
    if (state === 'PREV_STATE') throw new Error('PREV_STATE keeps the previous state: alertform has no such state memory');
    return state;
  }

  private or(): Condition {
    let left = this.and();
    while (this.isOp('||')) {
      this.at += 1;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }
  private and(): Condition {
    let left = this.primary();
    while (this.isOp('&&')) {
      this.at += 1;
      left = { kind: 'and', left, right: this.primary() };
    }
    return left;
  }
  private primary(): Condition {
    if (this.isOp('(')) {
      this.at += 1;
      const inner = this.or();
      this.expectOp(')');
      return inner;
    }
    return this.comparison();
  }

  private comparison(): Comparison {
    const first = this.side();
    const opToken = this.peek();
    if (opToken?.t !== 'op' || !['>', '>=', '<', '<=', '==', '!='].includes(opToken.v)) throw new Error(`expected a comparison${this.where()}`);
    this.at += 1;
    if (opToken.v === '==' || opToken.v === '!=') throw new Error(`"${opToken.v}" compares for equality: alertform's criteria are thresholds`);
    const second = this.side();
    const op = opToken.v as Comparison['op'];
    if (typeof first !== 'number' && typeof second === 'number') return { kind: 'compare', operand: first, op, value: second };
    if (typeof first === 'number' && typeof second !== 'number') return { kind: 'compare', operand: second, op: FLIPPED[op], value: first };
    throw new Error('a comparison must set a target (t1, or t1 / t2) against a number');
  }

  /** A number, a target `tN`, or a ratio `tN / tM`. */
  private side(): Operand | number {
    let sign = 1;
    if (this.isOp('-')) {
      this.at += 1;
      sign = -1;
    }
    const t = this.peek();
    if (t?.t === 'num') {
      this.at += 1;
      return sign * t.v;
    }
    const target = this.target();
    if (sign < 0) throw new Error('a negated target has no alertform equivalent');
    if (this.isOp('/')) {
      this.at += 1;
      const denominator = this.target();
      return { kind: 'ratio', numerator: target, denominator };
    }
    if (this.isOp('+') || this.isOp('-') || this.isOp('*')) throw new Error('arithmetic other than t1 / t2 has no alertform equivalent');
    return { kind: 'target', index: target };
  }

  private target(): number {
    const t = this.peek();
    if (t?.t !== 'id' || !/^t[1-9][0-9]*$/i.test(t.v)) throw new Error(`expected a target such as t1${this.where()}`);
    this.at += 1;
    return Number(t.v.slice(1));
  }
}

const FLIPPED: Record<Comparison['op'], Comparison['op']> = { '>': '<', '>=': '<=', '<': '>', '<=': '>=' };

/** Parses a Moira expression into its branches, or says why it does not map. */
export function parseMoiraExpression(text: string): ParsedExpression {
  if (text.length > MAX_EXPRESSION) return { ok: false, why: `longer than ${MAX_EXPRESSION} characters` };
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return { ok: false, why: tokens };
  try {
    const parser = new Parser(tokens);
    const branches = parser.chain();
    if (!parser.done()) return { ok: false, why: 'text after the expression' };
    if (branches.length === 0) return { ok: false, why: 'the expression never leaves OK' };
    return { ok: true, branches };
  } catch (error) {
    return { ok: false, why: (error as Error).message };
  }
}

/** The comparisons of a condition, left to right. */
export function comparisonsOf(condition: Condition): Comparison[] {
  return condition.kind === 'compare' ? [condition] : [...comparisonsOf(condition.left), ...comparisonsOf(condition.right)];
}
