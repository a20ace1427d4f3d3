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

describe('compound durations and the bare number of each field', () => {
  it('reads parts run together, in any order, with spaces between them', () => {
    expect(['1h30m', '1h 30m', '2d12h', '1m30s', '1h1m1s500ms', '30m1h'].map((text) => durationMs(text))).toEqual([
      5_400_000, 5_400_000, 216_000_000, 90_000, 3_661_500, 5_400_000,
    ]);
    for (const text of ['1h30', '30 1h', 'h1', '1hh', '1.5.5h']) expect(durationMs(text), text).toBeUndefined();
  });

  it('is the one pattern every schema repeats', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { DURATION_PATTERN } = await import('../../../src/model/duration.js');
    const dir = new URL('../../../schemas/', import.meta.url);
    const patterns: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) {
          if (key === 'pattern' && typeof item === 'string' && item.includes('ms|s|m|h|d|w')) patterns.push(item);
          else walk(item);
        }
      }
    };
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) walk(JSON.parse(readFileSync(new URL(name, dir), 'utf8')));
    expect(patterns.length).toBeGreaterThanOrEqual(8);
    expect(new Set(patterns)).toEqual(new Set([DURATION_PATTERN.source]));
  });

  it('mute --duration and ack --until: a bare number is minutes', async () => {
    const { parseMinutes } = await import('../../../src/cli/parse.js');
    expect(['90', '1h30m', '90m', '5400s', '1d'].map((text) => parseMinutes(text, '--duration', 525_600))).toEqual([90, 90, 90, 90, 1440]);
    expect(durationMs('45', { bareUnit: 'm' })).toBe(2_700_000);
  });

  it("a maintenance window's duration: an integer or a bare number is minutes, a unit says itself, whole minutes up to a year", async () => {
    const { windowDurationMinutes } = await import('../../../src/model/window-rules.js');
    expect([90, '90', '2h', '1h30m', '1d', '525600', '1w'].map(windowDurationMinutes)).toEqual([90, 90, 120, 90, 1440, 525_600, 10_080]);
    for (const wrong of [0, 1.5, '90s', '0m', '2y', '366d', 525_601]) expect(windowDurationMinutes(wrong), String(wrong)).toBeUndefined();
  });

  it('throttle and flap guard windows, escalation steps: a bare number is seconds, whole minutes', async () => {
    const { windowMinutes, checkWindow } = await import('../../../src/model/noise-control.js');
    expect(windowMinutes('1h30m')).toBe(90);
    expect(windowMinutes('5400')).toBe(90);
    expect(checkWindow('90', 'throttle.window')).toEqual([{ path: 'throttle.window', message: 'must be a whole number of minutes such as 10m, 1h or 1d (got "90"; a bare number is seconds)' }]);
    const { stepMinutes } = await import('../../../src/definitions/escalation.js');
    expect([stepMinutes('1h30m'), stepMinutes('5400'), stepMinutes('90')]).toEqual([90, 90, undefined]);
  });

  it('a definitions file takes every one of them in the grammar, at file:line when one is wrong', async () => {
    const { loadDefinitions } = await import('../../../src/definitions/load.js');
    const text = (windowDuration: string, throttle: string, after: string) => `channels:
  - description: ops
    type: webhook
    destination: https://hooks.example.com/x
    throttle: {max_notifications: 5, window: ${throttle}}
alerts:
  - name: disk
    metric: a.b
    alert_criteria: {type: above, above_value: 1}
    notification_channels: [ops]
    notification_type: state_change
    escalation:
      - {after: ${after}, notify: [ops]}
maintenance_windows:
  - name: patching
    match: {alert_names: ["disk"]}
    start_time: "02:00"
    repeat: [sun]
    duration: ${windowDuration}
`;
    const good = loadDefinitions([{ path: 'defs.yaml', text: text('1h30m', '1h30m', '1h30m') }]);
    expect(good.problems).toEqual([]);
    expect(good.definitions.maintenanceWindows![0]!.spec.duration).toBe('1h30m');
    const { maintenanceWindowAdapter } = await import('../../../src/plan/adapters/maintenance-window.js');
    expect(maintenanceWindowAdapter.canonicalDesired(good.definitions.maintenanceWindows![0]!.spec as never, { channel: (ref: string) => ref } as never).duration).toBe(90);
    const bad = loadDefinitions([{ path: 'defs.yaml', text: text('90s', '90', '90') }]);
    expect(bad.problems.map((problem) => `${problem.location?.line} ${problem.path} ${problem.message}`)).toEqual([
      '5 channels.0.throttle.window must be a whole number of minutes such as 10m, 1h or 1d (got 90; a bare number is seconds)',
      expect.stringMatching(/^13 alerts\.0\.escalation\.0\.after /),
      '19 maintenance_windows.0.duration must be whole minutes from 1m to a year (525600 minutes): 90 (minutes), 2h, 1h30m, 1d (got "90s")',
    ]);
  });

  it('serve settings, rule test offsets and backtest windows: a bare number is seconds', () => {
    expect(parseDurationMs('1m30s', '--eval-interval')).toBe(90_000);
    expect(parseOffset('5m30s')).toBe(330);
    expect(parseDurationSeconds('1d12h')).toBe(129_600);
    expect(durationMs('0', { allowZero: true })).toBe(0);
  });
});
