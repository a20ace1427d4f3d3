import { describe, expect, it } from 'vitest';
import { checkTemplate, lineColumnOf } from '../../../../src/notifications/templates/language.js';

describe('the template language', () => {
  it('accepts every documented field, list sections, conditions, inverted sections and comments', () => {
    const template = [
      '{{! a comment }}{{summary}} {{name}} {{value}} {{metric}} {{criteria}} {{info}} {{event}} {{time}}',
      '{{#triggered}}{{metric}} = {{value}} ({{name}}){{/triggered}}',
      '{{#links.ack}}ack: {{links.ack}}{{/links.ack}}{{^links.console}}no console{{/links.console}} {{links.graph}}',
    ].join('\n');
    expect(checkTemplate(template)).toEqual([]);
  });

  it('reports an unknown field at its tag, naming the known ones', () => {
    const [problem, ...rest] = checkTemplate('Alert {{nmae}} fired');
    expect(rest).toEqual([]);
    expect(problem!.offset).toBe(6);
    expect(problem!.message).toMatch(/^unknown field "nmae"; known fields: name, value, metric/);
  });

  it('refuses a list item field outside its list, and a list or group printed whole', () => {
    expect(checkTemplate('{{triggered.metric}}')[0]!.message).toMatch(/unknown field "triggered.metric"/);
    expect(checkTemplate('{{triggered}}')[0]!.message).toBe('"triggered" is a list: use it as a section {{#triggered}}...{{/triggered}}');
    expect(checkTemplate('{{links}}')[0]!.message).toBe('"links" is a group: use it as a section {{#links}}...{{/links}}');
  });

  it('reports an unclosed section at its opening tag', () => {
    expect(checkTemplate('ok\n  {{#triggered}}{{metric}}')).toEqual([{ offset: 5, message: 'unclosed section "triggered": add {{/triggered}}' }]);
  });

  it('reports an unclosed tag and a section closed without being opened', () => {
    expect(checkTemplate('Hello {{name')).toEqual([{ offset: 6, message: 'unclosed tag: a "{{" without its "}}"' }]);
    expect(checkTemplate('x {{/triggered}}')).toEqual([{ offset: 2, message: '{{/triggered}} closes a section that was not opened' }]);
  });

  it('refuses unescaped output, partials, changed delimiters and prototype names', () => {
    expect(checkTemplate('{{{name}}}')[0]!.message).toBe('unescaped output is not allowed: write {{name}}');
    expect(checkTemplate('{{& name}}')[0]!.message).toBe('unescaped output is not allowed: write {{name}}');
    expect(checkTemplate('{{> header}}')[0]!.message).toBe('partials ({{>name}}) are not supported');
    expect(checkTemplate('a {{=<% %>=}}')[0]).toEqual({ offset: 2, message: 'changing delimiters ({{=...=}}) is not supported' });
    for (const name of ['constructor', '__proto__', 'name.length', 'triggered.map', 'toString']) {
      expect(checkTemplate(`{{${name}}}`)[0]!.message).toMatch(/^unknown field/);
    }
  });

  it('turns an offset into a 1-based line and column', () => {
    expect(lineColumnOf('ab\ncd{{x}}', 5)).toEqual({ line: 2, column: 3 });
    expect(lineColumnOf('abc', 0)).toEqual({ line: 1, column: 1 });
  });
});
