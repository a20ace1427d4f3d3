import { describe, expect, it } from 'vitest';
import { MAX_MUTE_MINUTES } from '../../../src/model/defaults.js';
import { loadSchema } from '../../../src/model/schemas.js';

/** The value at a JSON pointer-like list of keys. */
function at(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined), value);
}

describe('the schemas repeat the model\'s limits', () => {
  it('take mutes of at most MAX_MUTE_MINUTES, single and bulk, and notify at most that rarely', () => {
    const alert = loadSchema('alert');
    expect(at(alert, ['$defs', 'mute', 'properties', 'duration', 'maximum'])).toBe(MAX_MUTE_MINUTES);
    expect(at(alert, ['$defs', 'bulkMute', 'properties', 'duration', 'maximum'])).toBe(MAX_MUTE_MINUTES);
    const every = JSON.stringify(at(alert, ['$defs', 'notificationType']));
    expect(every).toContain(`"maximum":${MAX_MUTE_MINUTES}`);
  });
});
