import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { MAX_RENDER_STEPS, MAX_RENDERED_CHARS, MAX_SECTION_DEPTH } from '../../../../src/notifications/templates/bounds.js';
import { checkChannelTemplate } from '../../../../src/notifications/templates/check-template.js';
import type { TemplateView } from '../../../../src/notifications/templates/fields.js';
import { checkTemplate } from '../../../../src/notifications/templates/language.js';
import { escapeHtml, renderTemplate } from '../../../../src/notifications/templates/render.js';

function view(series: number, metric = (i: number) => `web.${i}.cpu`): TemplateView {
  const triggered = Array.from({ length: series }, (_, i) => ({ metric: metric(i), value: String(90 + i) }));
  return {
    name: 'cpu <high> & "hot"',
    value: '90',
    metric: 'web.0.cpu',
    criteria: 'above 80',
    info: 'Runbook: https://runbooks.example/cpu',
    event: 'alerting',
    summary: '[ALERTING] cpu',
    time: '2023-11-14T22:13:20Z',
    triggered,
    links: { console: 'https://alertform.example/alerts/al_1', graph: '', ack: 'https://alertform.example/ack/x' },
  };
}

/** The attack: a list's section nested inside itself `levels` times (5 series, 11 levels: 5^11 lines). */
function tower(levels: number): string {
  return `${'{{#triggered}}'.repeat(levels)}{{metric}} {{value}}\n${'{{/triggered}}'.repeat(levels)}`;
}

describe('the checker bounds a template\'s work', () => {
  it('refuses a list section inside a section over the same list, once, at the inner opening tag', () => {
    expect(checkTemplate(tower(11))).toEqual([
      { offset: '{{#triggered}}'.length, message: expect.stringContaining('a {{#triggered}} section inside another {{#triggered}}') },
    ]);
    // Also when conditions sit between the two.
    expect(checkTemplate('{{#triggered}}{{#links.ack}}{{#triggered}}x{{/triggered}}{{/links.ack}}{{/triggered}}')).toHaveLength(1);
  });

  it('names the part, line and column for the API and validate', () => {
    expect(checkChannelTemplate({ body: `ok\n${tower(2)}` })).toEqual([
      { path: 'template.body', offset: 17, message: expect.stringMatching(/repeats the list.*\(template line 2, column 15\)$/) },
    ]);
  });

  it(`caps nesting at ${MAX_SECTION_DEPTH} sections, conditions included`, () => {
    const nested = (depth: number) => `${'{{#links.ack}}'.repeat(depth)}x${'{{/links.ack}}'.repeat(depth)}`;
    expect(checkTemplate(nested(MAX_SECTION_DEPTH))).toEqual([]);
    expect(checkTemplate(nested(MAX_SECTION_DEPTH + 1))).toEqual([
      { offset: MAX_SECTION_DEPTH * '{{#links.ack}}'.length, message: `sections nest at most ${MAX_SECTION_DEPTH} deep` },
    ]);
  });

  it('still accepts what real messages do: a list once, conditions, inverted sections of the list', () => {
    expect(checkTemplate('{{#triggered}}{{metric}}{{#links.ack}} ack: {{links.ack}}{{/links.ack}}\n{{/triggered}}{{^triggered}}none{{/triggered}}')).toEqual([]);
    expect(checkTemplate('{{#triggered}}{{metric}}{{/triggered}} and again {{#triggered}}{{value}}{{/triggered}}')).toEqual([]);
  });
});

describe('rendering within a budget', () => {
  const templates = [
    '{{name}}: {{value}} ({{criteria}})',
    '{{#triggered}}- {{metric}} = {{value}} [{{name}}]\n{{/triggered}}{{^triggered}}nothing{{/triggered}}',
    '{{#links.ack}}ack {{links.ack}}{{/links.ack}}{{^links.graph}}no graph{{/links.graph}}',
    '{{#links}}{{links.console}}{{/links}}{{#name}}named {{name}}{{/name}}{{! a comment }}',
    '  {{#triggered}}\n  {{metric}}\n  {{/triggered}}\nend',
  ];

  it.each(templates)('renders as mustache does: %j', (template) => {
    for (const format of ['plain', 'html'] as const) {
      const escape = format === 'html' ? escapeHtml : (text: string) => text;
      expect(renderTemplate(template, view(3), format)).toBe(Mustache.render(template, view(3), undefined, { escape }));
    }
  });

  it('stops at the length cap while rendering, cut cleanly, with a marker saying so', () => {
    const text = renderTemplate('{{#triggered}}{{name}} {{metric}}\n{{/triggered}}', view(10_000), 'html')!;
    const [kept, marker] = text.split('… [');
    expect(kept!.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    expect(kept!.length).toBeGreaterThan(MAX_RENDERED_CHARS - 10);
    // An escape is never split: the cut text is still valid HTML.
    expect(kept).toMatch(/(?:&[a-z#0-9]+;|[^&;])$/);
    expect(marker).toBe(`message cut at ${kept!.length} characters by alertform: longer than ${MAX_RENDERED_CHARS} characters]`);
  });

  it('stops a render that does much work for little text, at the step cap', () => {
    const text = renderTemplate('{{#triggered}}{{! nothing }}{{#links.ack}}{{/links.ack}}{{/triggered}}', view(MAX_RENDER_STEPS), 'plain')!;
    expect(text).toBe(`… [message cut at 0 characters by alertform: the template repeats too much (over ${MAX_RENDER_STEPS} steps)]`);
  });

  it('takes milliseconds for the worst a template can do', () => {
    // The largest body the schema takes, repeating the list, over a long wildcard with long names.
    const body = '{{#triggered}}{{metric}}{{value}}{{name}}{{/triggered}}'.repeat(16_384 / 56);
    expect(checkTemplate(body)).toEqual([]);
    const started = performance.now();
    const text = renderTemplate(body, view(5_000, (i) => `a.very.long.metric.name.${'x'.repeat(200)}.${i}`), 'html')!;
    expect(text).toContain('by alertform');
    // About a millisecond on a quiet machine; the freeze it bounds took minutes. The bound is far from both, so a
    // loaded machine (CI runs this beside the integration tests) never fails it; bench:templates holds the speed.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a template stored before the rules renders as the default message (null), never the tower', () => {
    const started = performance.now();
    expect(renderTemplate(tower(11), view(5), 'plain')).toBeNull();
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('never ends a cut inside an escape', () => {
    // "cpu &lt;high&gt; &amp; &quot;hot&quot;": 25 characters would end in "&q".
    expect(renderTemplate('{{name}}', view(1), 'html', { maxChars: 25, maxSteps: 100 })).toBe(
      'cpu &lt;high&gt; &amp; … [message cut at 23 characters by alertform: longer than 25 characters]',
    );
  });

  it('takes a smaller budget when given one', () => {
    expect(renderTemplate('{{name}}{{name}}', view(1), 'plain', { maxChars: 25, maxSteps: 100 })).toBe(
      'cpu <high> & "hot"cpu <hi… [message cut at 25 characters by alertform: longer than 25 characters]',
    );
  });
});
