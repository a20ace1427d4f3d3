import { describe, expect, it } from 'vitest';
import type { TemplateView } from '../../../../src/notifications/templates/fields.js';
import { renderTemplate, truncate } from '../../../../src/notifications/templates/render.js';

const NASTY = '<script>alert(1)</script> *bold* & "quoted"';

function view(overrides: Partial<TemplateView> = {}): TemplateView {
  return {
    name: NASTY,
    value: '95.5',
    metric: 'web.2.cpu',
    criteria: 'above 90 for 5 minutes',
    info: 'Runbook: https://runbooks.example/cpu',
    event: 'alerting',
    summary: `[ALERTING] ${NASTY}`,
    time: '2023-11-14T22:13:20Z',
    triggered: [
      { metric: 'web.2.cpu', value: '95.5' },
      { metric: 'web.3.cpu', value: 'no data' },
    ],
    links: { console: 'https://alertform.example/alerts/al_1', graph: '', ack: '' },
    ...overrides,
  };
}

describe('rendering a template', () => {
  it('escapes values for Slack mrkdwn: & < > only, the template text itself untouched', () => {
    expect(renderTemplate('*{{name}}* <{{links.console}}|open>', view(), 'slack')).toBe(
      '*&lt;script&gt;alert(1)&lt;/script&gt; *bold* &amp; "quoted"* <https://alertform.example/alerts/al_1|open>',
    );
  });

  it('escapes values for HTML, quotes included', () => {
    expect(renderTemplate('<b>{{name}}</b>', view(), 'html')).toBe(
      '<b>&lt;script&gt;alert(1)&lt;/script&gt; *bold* &amp; &quot;quoted&quot;</b>',
    );
  });

  it('leaves plain text (email text part, JSON fields) as it is: JSON.stringify keeps it inside its string', () => {
    const text = renderTemplate('{{name}}\n{{info}}', view(), 'plain')!;
    expect(text).toBe(`${NASTY}\nRunbook: https://runbooks.example/cpu`);
    expect(JSON.parse(JSON.stringify({ summary: text })).summary).toBe(text);
  });

  it('repeats a list section per triggered metric, with the outer fields still in scope', () => {
    expect(renderTemplate('{{#triggered}}{{metric}}={{value}} of {{event}};{{/triggered}}', view(), 'plain')).toBe(
      'web.2.cpu=95.5 of alerting;web.3.cpu=no data of alerting;',
    );
  });

  it('uses a section on a link as a condition: shown when present, the inverted one when absent', () => {
    const template = '{{#links.ack}}ack {{links.ack}}{{/links.ack}}{{^links.ack}}no ack link{{/links.ack}}';
    expect(renderTemplate(template, view(), 'plain')).toBe('no ack link');
    expect(renderTemplate(template, view({ links: { console: '', graph: '', ack: 'https://a.example/ack/x' } }), 'plain')).toBe('ack https://a.example/ack/x');
  });

  it('renders nothing it refuses: a template reaching for the prototype gives null, never the function', () => {
    expect(renderTemplate('{{constructor}}', view(), 'plain')).toBeNull();
    expect(renderTemplate('{{#triggered}}{{constructor.name}}{{/triggered}}', view(), 'plain')).toBeNull();
  });
});

describe('truncate', () => {
  it('keeps text within the limit and ends a cut one with an ellipsis', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdefg', 6)).toBe('abcde…');
    expect(truncate('x'.repeat(200), 130)).toHaveLength(130);
  });

  it('never splits an escape or a surrogate pair', () => {
    expect(truncate('abc &amp; def', 7)).toBe('abc …');
    expect(truncate('ab😀cd', 4)).toBe('ab…');
  });
});

describe('the template cache', () => {
  it('keeps at most its limit, dropping the least recently used', async () => {
    const { BoundedCache } = await import('../../../../src/notifications/templates/bounded-cache.js');
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c')]).toEqual([1, 3]);
  });
});
