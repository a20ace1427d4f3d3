import { describe, expect, it } from 'vitest';
import { readApiKey } from '../../../../src/server/http/authenticate.js';

const basic = (userInfo: string) => `Basic ${Buffer.from(userInfo).toString('base64')}`;

describe('reading the API key from Authorization', () => {
  it('takes the user name of Basic auth, whatever the password', () => {
    expect(readApiKey(basic('key123:'))).toBe('key123');
    expect(readApiKey(basic('key123:whatever'))).toBe('key123');
    expect(readApiKey(basic('key123'))).toBe('key123');
  });

  it('takes the password when the user name is empty (curl -u :KEY)', () => {
    expect(readApiKey(basic(':key123'))).toBe('key123');
  });

  it('decodes a percent-encoded user-info', () => {
    expect(readApiKey(basic('a%2Bb:'))).toBe('a+b');
  });

  it('takes a Bearer token, any case of the scheme', () => {
    expect(readApiKey('Bearer tok')).toBe('tok');
    expect(readApiKey('bearer tok')).toBe('tok');
  });

  it('finds nothing in a missing, empty or foreign header', () => {
    expect(readApiKey(undefined)).toBeNull();
    expect(readApiKey('')).toBeNull();
    expect(readApiKey('Bearer')).toBeNull();
    expect(readApiKey('Digest abc')).toBeNull();
    expect(readApiKey(basic(':'))).toBeNull();
  });
});
