import { describe, expect, it } from 'vitest';
import { resolveServer } from '../../../src/client/resolve-server.js';
import { AlertformError } from '../../../src/model/errors.js';

const hint = 'say where';

describe('the one server resolution', () => {
  it('takes what was given over ALERTFORM_URL over alertform.yaml, and the key from the flag over the env', () => {
    const env = { ALERTFORM_URL: 'http://env.example', ALERTFORM_API_KEY: 'env-key-0000' };
    expect(resolveServer({ given: { server: 'http://flag.example', apiKey: 'flag-key-0000' }, env, projectServer: 'http://yaml.example', missingHint: hint })).toEqual({
      server: 'http://flag.example',
      apiKey: 'flag-key-0000',
      source: 'given',
    });
    expect(resolveServer({ given: {}, env, projectServer: 'http://yaml.example', missingHint: hint })).toMatchObject({ server: 'http://env.example', apiKey: 'env-key-0000', source: 'env' });
    expect(resolveServer({ env: {}, projectServer: 'http://yaml.example', missingHint: hint })).toMatchObject({ server: 'http://yaml.example', source: 'project' });
  });

  it('counts empty values as unset, and never uses alertform.yaml unless the caller passes it (the Action does not)', () => {
    expect(resolveServer({ given: { server: '' }, env: { ALERTFORM_URL: '' }, projectServer: 'http://yaml.example', missingHint: hint }).source).toBe('project');
    const missing = (() => {
      try {
        resolveServer({ given: { server: undefined }, env: {}, missingHint: hint });
      } catch (error) {
        return error;
      }
    })();
    expect(missing).toBeInstanceOf(AlertformError);
    expect(missing).toMatchObject({ code: 'no_server', message: 'no server: say where' });
  });

  it('falls back to a default only when one is given (the agent: the hosted API)', () => {
    expect(resolveServer({ env: {}, fallback: 'https://api.example', missingHint: hint })).toMatchObject({ server: 'https://api.example', source: 'fallback' });
  });

  it('refuses a URL that is not http(s) before anything is sent, without printing its user-info', () => {
    expect(() => resolveServer({ given: { server: 'ftp://k3y-secret@host' }, env: {}, missingHint: hint })).toThrow(/server URL must be http\(s\)/);
    expect(() => resolveServer({ given: { server: 'http://k3y-secret@[bad' }, env: {}, missingHint: hint })).toThrow(/^invalid server URL "http:\/\/\(sensitive\)@\[bad"$/);
  });
});
