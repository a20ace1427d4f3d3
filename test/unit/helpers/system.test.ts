import { describe, expect, it } from 'vitest';
import { hasCommand } from '../../helpers/system.js';

describe('hasCommand', () => {
  it('finds a command as `command -v` does: by name on PATH or by path, and only an executable file', () => {
    expect(hasCommand('sh')).toBe(true);
    expect(hasCommand('/bin/sh')).toBe(true);
    expect(hasCommand('alertform-no-such-command')).toBe(false);
    expect(hasCommand('/etc/passwd')).toBe(false);
    expect(hasCommand('/etc')).toBe(false);
  });
});
