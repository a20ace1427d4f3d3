import { describe, expect, it } from 'vitest';
import { parseListenAddress } from '../../../src/stream/listen-address.js';

describe('carbon listen addresses', () => {
  it('bind loopback unless a host is given', () => {
    expect(parseListenAddress('2003')).toEqual({ host: '127.0.0.1', port: 2003 });
    expect(parseListenAddress(':2003')).toEqual({ host: '127.0.0.1', port: 2003 });
    expect(parseListenAddress('0.0.0.0:2103')).toEqual({ host: '0.0.0.0', port: 2103 });
    expect(parseListenAddress('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseListenAddress('carbon.internal:2004')).toEqual({ host: 'carbon.internal', port: 2004 });
  });

  it('refuse what is not HOST:PORT, saying why', () => {
    expect(() => parseListenAddress('::1:2003')).toThrow(/brackets/);
    expect(() => parseListenAddress('host:70000')).toThrow(/0 to 65535/);
    expect(() => parseListenAddress('host:')).toThrow(/HOST:PORT/);
    expect(() => parseListenAddress('a b:2003')).toThrow(/not a host/);
  });
});
