import { describe, expect, it } from 'vitest';
import { durationMs } from '../../../src/model/duration.js';
import { parseDurationSeconds } from '../../../src/impact/duration.js';
import { parseDurationMs } from '../../../src/cli/parse.js';
import { parseOffset } from '../../../src/rule-tests/read-rule-tests.js';

describe('the one duration grammar', () => {
  it('reads every unit, decimals, spaces, and a bare number as seconds', () => {
    expect(['500ms', '30s', '15m', '24h', '7d', '1w', '90', '1.5h', ' 2 d '].map((text) => durationMs(text))).toEqual([
      500, 30_000, 900_000, 86_400_000, 604_800_000, 604_800_000, 90_000, 5_400_000, 172_800_000,
    ]);
  });

  it('refuses words, negative numbers, unknown units and zero (unless an offset)', () => {
    for (const text of ['a day', '-5m', '7x', '1y', '', 'm', '0s']) expect(durationMs(text), text).toBeUndefined();
    expect(durationMs('0m', { allowZero: true })).toBe(0);
  });

  it('is the grammar of the backtest window, the serve flags and the rule tests alike', () => {
    // Before: the window refused a bare number and 500ms, the delivery flags refused weeks.
    expect(parseDurationSeconds('90')).toBe(90);
    expect(parseDurationSeconds('2w')).toBe(1_209_600);
    expect(parseDurationMs('1w', '--delivery-max-age')).toBe(604_800_000);
    expect(parseDurationMs('90', '--delivery-timeout')).toBe(90_000);
    expect(parseOffset('90')).toBe(90);
    expect(parseOffset('0m')).toBe(0);
    expect(() => parseDurationSeconds('7x')).toThrow('"7x" is not a duration');
    expect(() => parseDurationSeconds('500ms')).toThrow('"500ms" is not a positive duration');
    expect(() => parseDurationMs('a day', '--delivery-max-age')).toThrow('--delivery-max-age must be a positive duration such as 90s, 15m or 24h, not "a day"');
  });
});
