import { describe, expect, it } from 'vitest';
import { loggablePath } from '../../../../src/server/http/signed-link-paths.js';

const token = `${'a'.repeat(40)}.${'b'.repeat(43)}`;

describe('loggablePath', () => {
  it('leaves paths without a link or a token as they came', () => {
    for (const path of ['/v2/alerts/al_1', '/alerts/My%20Alert', '/v2/alerts?x=1', '/healthz', '/v2/graph%20x']) {
      expect(loggablePath(path)).toBe(path);
    }
  });

  it('cuts what follows a link segment, however spelt', () => {
    expect(loggablePath(`/v2/graphs/${token}.png`)).toBe('/v2/graphs/(token)');
    expect(loggablePath(`/v2/GRAPHS%2F${token}.png`)).toBe('/v2/graphs/(token)');
    expect(loggablePath(`/v2/a/b/../../ack-links;x/${token}`)).toBe('/v2/ack-links/(token)');
    expect(loggablePath(`/../../graphs/x`)).toBe('/graphs/(token)');
  });

  it('cuts a token elsewhere, its dot encoded or not, and keeps the rest', () => {
    expect(loggablePath(`/v2/alerts/${token}`)).toBe('/v2/alerts/(token)');
    expect(loggablePath(`/v2/alerts/${token.replace('.', '%2E')}/x`)).toBe('/v2/alerts/(token)/x');
    // Long runs of token characters are read in linear time (no backtracking regular expression).
    const long = `/v2/${'a'.repeat(16_000)}`;
    expect(loggablePath(long)).toBe(long);
    expect(loggablePath(`/v2/${'a.'.repeat(8_000)}`)).toBe(`/v2/${'a.'.repeat(8_000)}`);
  });
});
