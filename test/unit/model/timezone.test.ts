import { describe, expect, it } from 'vitest';
import { canonicalTimezone, formatTimezone, timezoneOffsetMinutes } from '../../../src/model/timezone.js';

describe('timezone offsets', () => {
  it('read UTC, whole hours and half hours on both sides', () => {
    expect(timezoneOffsetMinutes('UTC')).toBe(0);
    expect(timezoneOffsetMinutes('UTC+2')).toBe(120);
    expect(timezoneOffsetMinutes('UTC-5:30')).toBe(-330);
    expect(timezoneOffsetMinutes('UTC+14')).toBe(840);
    expect(() => timezoneOffsetMinutes('CET')).toThrow();
  });

  it('are written one way per offset', () => {
    expect([0, 120, -330, 30, -720].map(formatTimezone)).toEqual(['UTC', 'UTC+2', 'UTC-5:30', 'UTC+0:30', 'UTC-12']);
  });
});

describe('canonicalTimezone', () => {
  it('spells equal offsets alike and fills UTC for none', () => {
    expect(['UTC+02:00', 'UTC+2', 'UTC+02'].map(canonicalTimezone)).toEqual(['UTC+2', 'UTC+2', 'UTC+2']);
    expect(['UTC+0', 'UTC-00:00', undefined, null, ''].map(canonicalTimezone)).toEqual(['UTC', 'UTC', 'UTC', 'UTC', 'UTC']);
    expect(canonicalTimezone('UTC-05:30')).toBe('UTC-5:30');
  });

  it('leaves text that is no offset as it is, so a diff shows it', () => {
    expect(canonicalTimezone('Europe/Paris')).toBe('Europe/Paris');
  });
});
