import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../../src/definitions/load.js';
import { formatProblem } from '../../../src/definitions/problems.js';

const load = (text: string) => loadDefinitions([{ path: 'channels.yaml', text }], { env: {} });

describe('template problems in definitions', () => {
  it('point inside a literal block at the tag that is wrong, line and column of the file', () => {
    const result = load(`channels:
  - description: ops slack
    type: slack
    destination: https://hooks.slack.com/services/T/B/x
    template:
      title: |
        {{#triggered}}{{metric}}
      body: |
        Alert {{name}} fired
          value {{vaule}}
`);
    expect(result.problems.map(formatProblem)).toEqual([
      'channels.yaml:7:9  channels.0.template.title  unclosed section "triggered": add {{/triggered}} (template line 1, column 1)',
      'channels.yaml:10:17  channels.0.template.body  unknown field "vaule"; known fields: name, value, metric, criteria, info, event, summary, time, links.console, links.graph, links.ack, triggered[metric, value] (template line 2, column 9)',
    ]);
  });

  it('point inside a quoted or plain one-line string', () => {
    const result = load(`channels:
  - description: a
    type: webhook
    destination: https://h.example/x
    template:
      title: "Hi {{{name}}}"
      body: see {{links}}
`);
    expect(result.problems.map((p) => `${p.location!.line}:${p.location!.column} ${p.path} ${p.message}`)).toEqual([
      '6:18 channels.0.template.title unescaped output is not allowed: write {{name}} (template line 1, column 4)',
      '7:17 channels.0.template.body "links" is a group: use it as a section {{#links}}...{{/links}} (template line 1, column 5)',
    ]);
  });

  it('falls back to the string itself where escapes make the source differ from the value', () => {
    const line = '  - {description: a, type: webhook, destination: "https://h.example/x", template: {title: "\\t{{nope}}"}}';
    const result = load(`channels:\n${line}\n`);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.location).toMatchObject({ line: 2, column: line.indexOf('"\\t') + 1 });
    expect(result.problems[0]!.message).toMatch(/^unknown field "nope"/);
  });

  it('refuses a list section nested in itself in validate and plan, through the same checker as the server', () => {
    const result = load(`channels:
  - description: a
    type: webhook
    destination: https://h.example/x
    template:
      body: |
        {{#triggered}}
          {{#triggered}}{{metric}}{{/triggered}}
        {{/triggered}}
`);
    expect(result.problems.map(formatProblem)).toEqual([
      'channels.yaml:8:11  channels.0.template.body  a {{#triggered}} section inside another {{#triggered}} repeats the list once per item of it: use the item\'s fields in the outer section (template line 2, column 3)',
    ]);
  });

  it('refuses a severity or priority that is not one of the documented values', () => {
    const result = load(`alerts:
  - {name: a, metric: m, alert_criteria: {type: above, above_value: 1}, pagerduty_severity: loud, opsgenie_priority: P1}
`);
    expect(result.problems.map((p) => p.path)).toEqual(['alerts.0.pagerduty_severity']);
  });
});
