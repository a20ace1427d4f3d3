import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ANSWER_BYTES, maxAnswerBytes } from '../../../src/client/capped-answer.js';

describe('the cap on a server answer', () => {
  it('is 64 MiB unless ALERTFORM_MAX_ANSWER_BYTES says otherwise', () => {
    expect(DEFAULT_MAX_ANSWER_BYTES).toBe(64 * 1024 * 1024);
    expect(maxAnswerBytes({})).toBe(64 * 1024 * 1024);
    expect(maxAnswerBytes({ ALERTFORM_MAX_ANSWER_BYTES: '  ' })).toBe(64 * 1024 * 1024);
    expect(maxAnswerBytes({ ALERTFORM_MAX_ANSWER_BYTES: '4096' })).toBe(4096);
  });

  it('refuses a setting that is not a whole number of bytes', () => {
    for (const set of ['lots', '0', '1.5', '-1', '2MiB']) {
      expect(() => maxAnswerBytes({ ALERTFORM_MAX_ANSWER_BYTES: set }), set).toThrow(`ALERTFORM_MAX_ANSWER_BYTES must be a whole number of bytes, not "${set}"`);
    }
  });
});
