import type { FieldProblem } from '../../model/schemas.js';
import type { MessageTemplate } from '../../model/types.js';
import { checkTemplate, lineColumnOf } from './language.js';

/** A template problem with the part it is in and where inside that part's text. */
export interface TemplatePartProblem extends FieldProblem {
  /** 0-based offset in the part's text: a YAML locator turns it into the file's line and column. */
  offset: number;
}

/**
 * Checks both parts of a channel's template (unknown fields, unclosed sections, bad syntax, refused tags). Each
 * problem is at `template.title` or `template.body`, its message saying the line and column inside the template.
 */
export function checkChannelTemplate(template: MessageTemplate | null | undefined): TemplatePartProblem[] {
  if (!template) return [];
  const problems: TemplatePartProblem[] = [];
  for (const part of ['title', 'body'] as const) {
    const text = template[part];
    if (typeof text !== 'string') continue;
    for (const problem of checkTemplate(text)) {
      const { line, column } = lineColumnOf(text, problem.offset);
      problems.push({ path: `template.${part}`, offset: problem.offset, message: `${problem.message} (template line ${line}, column ${column})` });
    }
  }
  return problems;
}
