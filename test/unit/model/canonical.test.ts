import { describe, expect, it } from 'vitest';
import {
  canonicalAdditionalCriteria,
  canonicalCriteria,
  canonicalNotificationType,
  canonicalOnQueryFailure,
  canonicalWeekdays,
  usesGraphiteFunction,
} from '../../../src/model/canonical.js';
import type { NotificationTypeInput } from '../../../src/model/types.js';

describe('graphite function detection', () => {
  it('sees a function call in the metric or an additional criterion, not a plain path or wildcard', () => {
    expect(usesGraphiteFunction('sumSeries(a.*)')).toBe(true);
    expect(usesGraphiteFunction('alias (a, "b")')).toBe(true);
    expect(usesGraphiteFunction('a.b.*.c')).toBe(false);
    expect(usesGraphiteFunction('a.{b,c}.d')).toBe(false);
    expect(usesGraphiteFunction('a.b', { b: { metric: 'maxSeries(c)' } })).toBe(true);
  });

  it('gives on_query_failure its default only when it is left out', () => {
    expect(canonicalOnQueryFailure(undefined, 'sumSeries(a.*)')).toBe('notify');
    expect(canonicalOnQueryFailure(undefined, 'a.b')).toBeNull();
    expect(canonicalOnQueryFailure(null, 'sumSeries(a.*)')).toBeNull();
    expect(canonicalOnQueryFailure('ignore', 'a.b', { b: { metric: 'maxSeries(c)' } })).toBe('ignore');
  });
});

describe('normal forms', () => {
  it('write notification_type in list form, empty meaning every 60', () => {
    expect(canonicalNotificationType('state_change')).toEqual(['state_change']);
    expect(canonicalNotificationType(['state_change'])).toEqual(['state_change']);
    expect(canonicalNotificationType(['every', 5])).toEqual(['every', 5]);
    for (const empty of [undefined, null, '', []] as NotificationTypeInput[]) expect(canonicalNotificationType(empty)).toEqual(['every', 60]);
  });

  it('keep only the criteria values that are set; a null, empty or zero time_period is instantaneous', () => {
    expect(canonicalCriteria({ type: 'above', above_value: 1, time_period: null })).toEqual({ type: 'above', above_value: 1 });
    expect(canonicalCriteria({ type: 'below', below_value: 0, time_period: '' })).toEqual({ type: 'below', below_value: 0 });
    expect(canonicalCriteria({ type: 'missing', time_period: 5 })).toEqual({ type: 'missing', time_period: 5 });
  });

  it('key additional criteria by lower-case letter, in letter order', () => {
    const result = canonicalAdditionalCriteria({ C: { type: 'above', above_value: 1, metric: 'x' }, b: { type: 'missing', time_period: 3, metric: 'y' } });
    expect(Object.keys(result)).toEqual(['b', 'c']);
    expect(result.c).toEqual({ type: 'above', above_value: 1, metric: 'x' });
  });

  it('write repeat days as a set, Monday first', () => {
    expect(canonicalWeekdays(['sun', 'mon', 'sun', 'wed'])).toEqual(['mon', 'wed', 'sun']);
    expect(canonicalWeekdays(undefined)).toEqual([]);
  });
});
