import { MAX_RENDER_STEPS, MAX_RENDERED_CHARS } from './bounds.js';
import type { Token } from './language.js';

/** What one render may spend (bounds.ts holds the server's; tests pass smaller ones). */
export interface RenderBudget {
  maxChars: number;
  maxSteps: number;
}

export const DEFAULT_BUDGET: RenderBudget = { maxChars: MAX_RENDERED_CHARS, maxSteps: MAX_RENDER_STEPS };

/** Thrown inside a render to stop it where it is; never leaves this module. */
class BudgetSpent {
  constructor(readonly reason: string) {}
}

/**
 * Renders checked tokens (language.ts) the way mustache renders them, with a budget: mustache's own render is one
 * synchronous recursion with no bound, so a template that repeats a list inside itself holds the event loop (and
 * builds gigabytes) before anything can stop it. This walk counts every step and the text's length as it goes,
 * and stops at the first that runs out: the text so far, cut cleanly, then a marker saying it was cut. It covers
 * only what the checker lets through (text, comments, escaped names, sections and inverted sections).
 */
export function renderTokens(tokens: Token[], view: object, escape: (text: string) => string, budget: RenderBudget = DEFAULT_BUDGET): string {
  let text = '';
  let steps = 0;
  const step = () => {
    steps += 1;
    if (steps > budget.maxSteps) throw new BudgetSpent(`the template repeats too much (over ${budget.maxSteps} steps)`);
  };
  const append = (more: string) => {
    if (text.length + more.length <= budget.maxChars) {
      text += more;
      return;
    }
    // Cut from the whole (not from a prefix of it), so that cleanCut sees an escape the cut would split.
    text = cleanCut(text + more, budget.maxChars);
    throw new BudgetSpent(`longer than ${budget.maxChars} characters`);
  };
  // One stack, pushed and popped around each section: no copy per list item.
  const stack: object[] = [view];
  const inside = (children: Token[] | undefined, context: unknown) => {
    const pushed = context !== null && typeof context === 'object';
    if (pushed) stack.push(context);
    try {
      walk(children ?? []);
    } finally {
      if (pushed) stack.pop();
    }
  };
  const walk = (nodes: Token[]): void => {
    for (const [type, value, , , children] of nodes) {
      step();
      if (type === 'text') append(value);
      else if (type === 'name') {
        const found = lookup(stack, value);
        if (found !== null && found !== undefined) append(escape(String(found)));
      } else if (type === '#') {
        const found = lookup(stack, value);
        if (Array.isArray(found)) {
          for (const item of found) {
            step();
            inside(children, item);
          }
        } else if (found) inside(children, found);
      } else if (type === '^') {
        const found = lookup(stack, value);
        if (!found || (Array.isArray(found) && found.length === 0)) inside(children, null);
      }
      // Comments render nothing; every other kind is refused by the checker before a render.
    }
  };
  try {
    walk(tokens);
    return text;
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    return `${text}… [message cut at ${text.length} characters by alertform: ${error.reason}]`;
  }
}

/**
 * mustache's lookup, for the names the checker allows: the innermost context that has the (dotted) name wins,
 * else the next one out. Own properties only: a name never reaches a prototype.
 */
function lookup(stack: readonly object[], name: string): unknown {
  const path = name.includes('.') ? name.split('.') : [name];
  for (let i = stack.length - 1; i >= 0; i--) {
    let value: unknown = stack[i];
    let found = true;
    for (const key of path) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) {
        found = false;
        break;
      }
      value = (value as Record<string, unknown>)[key];
    }
    if (found) return value;
  }
  return undefined;
}

/**
 * Text cut to at most `max` characters without splitting an escape (`&amp;`) or a surrogate pair, so the cut text
 * is still valid in its format.
 */
export function cleanCut(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max));
  const entity = cut.lastIndexOf('&');
  if (entity >= 0 && entity > cut.length - 10 && !cut.slice(entity).includes(';')) cut = cut.slice(0, entity);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut;
}
