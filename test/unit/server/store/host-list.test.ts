import { describe, expect, it } from 'vitest';
import { parseHostList } from '../../../../src/server/store/postgres/host-list.js';

describe('parseHostList', () => {
  it('keeps a single-host URL as it is', () => {
    expect(parseHostList('postgres://u:p@db:5432/alerts?sslmode=require')).toEqual({ urls: ['postgres://u:p@db:5432/alerts?sslmode=require'], readWrite: false });
  });

  it('splits libpq\'s multi-host syntax into one URL per host, in order, without target_session_attrs', () => {
    expect(parseHostList('postgresql://u:p@h1:5432,h2:5433,[::1]:5434/alerts?target_session_attrs=read-write&sslmode=require')).toEqual({
      urls: ['postgresql://u:p@h1:5432/alerts?sslmode=require', 'postgresql://u:p@h2:5433/alerts?sslmode=require', 'postgresql://u:p@[::1]:5434/alerts?sslmode=require'],
      readWrite: true,
    });
  });

  it('reads target_session_attrs=primary as read-write and any as no requirement', () => {
    expect(parseHostList('postgres://h1,h2/db?target_session_attrs=primary').readWrite).toBe(true);
    expect(parseHostList('postgres://h1,h2/db?target_session_attrs=any')).toEqual({ urls: ['postgres://h1/db', 'postgres://h2/db'], readWrite: false });
  });

  it('refuses a target_session_attrs it does not implement, naming it', () => {
    expect(() => parseHostList('postgres://h1,h2/db?target_session_attrs=prefer-standby')).toThrow(/target_session_attrs=prefer-standby is not supported/);
  });
});
