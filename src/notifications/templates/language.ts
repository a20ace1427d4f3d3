import Mustache from 'mustache';
import { BoundedCache } from './bounded-cache.js';
import { MAX_SECTION_DEPTH } from './bounds.js';
import { classifyField, knownFieldNames, LIST_FIELDS } from './fields.js';

/**
 * The template language: Mustache (logic-less: no expressions, no code), narrowed to what is safe here. Allowed:
 * `{{field}}` (escaped for the channel), sections `{{#field}}...{{/field}}` (a list repeats, anything else is a
 * condition), inverted sections `{{^field}}...{{/field}}` and comments `{{! ...}}`. Refused: unescaped output
 * (`{{{x}}}`, `{{&x}}`), partials (`{{>x}}`), changed delimiters (`{{=<% %>=}}`), and any name that is not a
 * field of fields.ts; so a template can reach nothing but the view's own strings (no prototype, no function).
 * Also refused, to bound a render's work: a list's section inside a section over the same list (each level repeats
 * the list once per item of the level above), and sections nested deeper than MAX_SECTION_DEPTH.
 */

/** A problem of a template, at a 0-based offset in its text. */
export interface TemplateProblem {
  offset: number;
  message: string;
}

/** How many distinct templates' tokens and checks are kept (each a few hundred bytes to a few KB). */
const CACHED_TEMPLATES = 2_000;

/**
 * The one Writer that parses templates (bounded-render.ts renders them), its token cache bounded (mustache's own
 * cache never forgets). Parsing is pure, so a cached parse is the parse.
 */
export const templateWriter = new Mustache.Writer();
(templateWriter as unknown as { templateCache: unknown }).templateCache = new BoundedCache<unknown>(CACHED_TEMPLATES);

const checks = new BoundedCache<TemplateProblem[]>(CACHED_TEMPLATES);

/** A node of mustache's parse tree: sections (`#`, `^`) carry their children. */
export type Token = [type: string, value: string, start: number, end: number, children?: Token[], sectionEnd?: number];

/** Parses and checks a template; an empty list means it renders. Results are cached per template text. */
export function checkTemplate(text: string): TemplateProblem[] {
  let problems = checks.get(text);
  if (!problems) {
    problems = checkUncached(text);
    checks.set(text, problems);
  }
  return problems;
}

function checkUncached(text: string): TemplateProblem[] {
  const delimiter = text.indexOf('{{=');
  if (delimiter >= 0) return [{ offset: delimiter, message: 'changing delimiters ({{=...=}}) is not supported' }];
  let tokens: Token[];
  try {
    tokens = templateWriter.parse(text) as unknown as Token[];
  } catch (error) {
    return [syntaxProblem(text, error instanceof Error ? error.message : String(error))];
  }
  const problems: TemplateProblem[] = [];
  checkTokens(tokens, { listItem: null, openLists: [], depth: 0 }, problems);
  return problems;
}

/** mustache's syntax errors end with `at N`; unclosed tags and sections report where the text ends or the tag closes, so step back to the opening "{{". */
function syntaxProblem(text: string, raw: string): TemplateProblem {
  const match = /^(.*) at (\d+)$/.exec(raw);
  if (!match) return { offset: 0, message: raw };
  let offset = Number(match[2]);
  const message = match[1]!;
  const section = /^Unclosed section "(.*)"$/.exec(message);
  if (section) offset = lastOpening(text, section[1]!, offset);
  else if (message === 'Unclosed tag') offset = Math.max(0, text.lastIndexOf('{{', offset - 1));
  return { offset: Math.min(offset, text.length), message: plainSyntax(message) };
}

/** Where the last `{{#name}}` or `{{^name}}` before `end` starts. */
function lastOpening(text: string, name: string, end: number): number {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let found = 0;
  for (const match of text.slice(0, end).matchAll(new RegExp(`\\{\\{\\s*[#^]\\s*${escaped}\\s*\\}\\}`, 'g'))) found = match.index;
  return found;
}

function plainSyntax(message: string): string {
  if (message === 'Unclosed tag') return 'unclosed tag: a "{{" without its "}}"';
  const section = /^Unclosed section "(.*)"$/.exec(message);
  if (section) return `unclosed section "${section[1]}": add {{/${section[1]}}}`;
  const unopened = /^Unopened section "(.*)"$/.exec(message);
  if (unopened) return `{{/${unopened[1]}}} closes a section that was not opened`;
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/** Where a token sits: the list item whose fields are in scope, the lists repeating around it, how deep. */
interface Scope {
  listItem: readonly string[] | null;
  openLists: readonly string[];
  depth: number;
}

function checkTokens(tokens: Token[], scope: Scope, problems: TemplateProblem[]): void {
  const { listItem } = scope;
  for (const [type, value, start, , children] of tokens) {
    if (type === 'text' || type === '!') continue;
    if (type === '&' || type === '{') {
      problems.push({ offset: start, message: `unescaped output is not allowed: write {{${value}}}` });
      continue;
    }
    if (type === '>') {
      problems.push({ offset: start, message: 'partials ({{>name}}) are not supported' });
      continue;
    }
    const kind = classifyField(value, listItem);
    if (kind === 'unknown') {
      problems.push({ offset: start, message: `unknown field "${value}"; known fields: ${knownFieldNames().join(', ')}` });
      continue;
    }
    if (type === 'name') {
      if (kind !== 'scalar') problems.push({ offset: start, message: `"${value}" is a ${kind}: use it as a section {{#${value}}}...{{/${value}}}` });
      continue;
    }
    // A section (#) or inverted section (^). The two rules below stop at the first problem of a branch: one
    // message for a tower of nested sections, not one per level.
    const repeats = type === '#' && kind === 'list';
    if (repeats && scope.openLists.includes(value)) {
      problems.push({
        offset: start,
        message: `a {{#${value}}} section inside another {{#${value}}} repeats the list once per item of it: use the item's fields in the outer section`,
      });
      continue;
    }
    if (scope.depth >= MAX_SECTION_DEPTH) {
      problems.push({ offset: start, message: `sections nest at most ${MAX_SECTION_DEPTH} deep` });
      continue;
    }
    // A list's items bring their own fields into scope.
    checkTokens(
      children ?? [],
      {
        listItem: repeats ? (LIST_FIELDS[value] ?? null) : listItem,
        openLists: repeats ? [...scope.openLists, value] : scope.openLists,
        depth: scope.depth + 1,
      },
      problems,
    );
  }
}

/** The 1-based line and column of an offset in a text. */
export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}
