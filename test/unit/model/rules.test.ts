import { describe, expect, it } from 'vitest';
import { checkAutoResolve, checkCriteriaBounds, checkDestination, checkExpressionLetters, checkOnQueryFailure } from '../../../src/model/rules.js';

const paths = (problems: { path: string }[]) => problems.map((p) => p.path);

describe('checkExpressionLetters', () => {
  it('returns the canonical expression of a valid composite', () => {
    expect(checkExpressionLetters(['B', 'c'], 'A&&(b||C)')).toEqual({ expression: 'a && (b || c)', problems: [] });
    expect(checkExpressionLetters([], undefined)).toEqual({ expression: 'a', problems: [] });
  });

  it('requires an expression with additional criteria, and one that parses', () => {
    expect(paths(checkExpressionLetters(['b'], undefined).problems)).toEqual(['expression']);
    const broken = checkExpressionLetters(['b'], 'a &&');
    expect(broken.expression).toBe('a &&');
    expect(broken.problems[0]!.message).toMatch(/^invalid expression: .* \(at character \d+\)$/);
  });

  it('names unknown, unused, repeated and reserved letters at their places', () => {
    expect(checkExpressionLetters(['b', 'd'], 'a && (b || z)').problems).toEqual([
      { path: 'expression', message: 'letter "z" has no additional_criteria entry' },
      { path: 'additional_criteria.d', message: 'letter "d" is not used in expression "a && (b || z)"' },
    ]);
    expect(paths(checkExpressionLetters(['b', 'B'], 'a && b').problems)).toEqual(['additional_criteria.B']);
    expect(paths(checkExpressionLetters(['A'], 'a').problems)).toEqual(['additional_criteria.A']);
  });
});

describe('the single-field rules', () => {
  it('want below_value under above_value for outside_bounds only', () => {
    expect(paths(checkCriteriaBounds({ type: 'outside_bounds', below_value: 5, above_value: 1 }, 'alert_criteria'))).toEqual(['alert_criteria.below_value']);
    expect(checkCriteriaBounds({ type: 'outside_bounds', below_value: 1, above_value: 5 }, 'alert_criteria')).toEqual([]);
    expect(checkCriteriaBounds({ type: 'above', below_value: 5, above_value: 1 }, 'alert_criteria')).toEqual([]);
  });

  it('allow on_query_failure only for function queries, null everywhere', () => {
    expect(paths(checkOnQueryFailure('notify', 'a.b'))).toEqual(['on_query_failure']);
    expect(checkOnQueryFailure('notify', 'a.b', { b: { metric: 'sumSeries(c)' } })).toEqual([]);
    expect(checkOnQueryFailure(null, 'a.b')).toEqual([]);
    expect(checkOnQueryFailure(undefined, 'a.b')).toEqual([]);
  });

  it('allow auto_resolve: true only on pagerduty and victorops', () => {
    expect(paths(checkAutoResolve('email', true))).toEqual(['auto_resolve']);
    expect(checkAutoResolve('victorops', true)).toEqual([]);
    expect(checkAutoResolve('slack', false)).toEqual([]);
  });
});

describe('checkDestination', () => {
  it('wants addresses for email, http(s) URLs for slack, webhook and victorops, keys for pagerduty and opsgenie', () => {
    expect(checkDestination('email', ' a@b.c, d@e.f ')).toEqual([]);
    expect(checkDestination('email', 'a@b.c, nope')).toEqual([{ path: 'destination', message: '"nope" is not an email address (several may be given, comma separated)' }]);
    expect(paths(checkDestination('webhook', 'ftp://x'))).toEqual(['destination']);
    expect(checkDestination('victorops', 'https://alert.victorops.com/x')).toEqual([]);
    expect(paths(checkDestination('pagerduty', 'a key'))).toEqual(['destination']);
  });

  it('never echoes a URL or key, nor an address when told not to', () => {
    expect(checkDestination('slack', 'hooks.slack.com/T0/s3cret')[0]!.message).not.toContain('s3cret');
    expect(checkDestination('opsgenie', 'og s3cret')[0]!.message).not.toContain('s3cret');
    expect(checkDestination('email', 'secret-person', { show: () => 'a value' })[0]!.message).not.toContain('secret-person');
  });
});
