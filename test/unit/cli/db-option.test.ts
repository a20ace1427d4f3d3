import { describe, expect, it } from 'vitest';
import { describeDatabase, isPostgresUrl } from '../../../src/server/store/open-store.js';

describe('the --db value of serve and keys', () => {
  it('tells a PostgreSQL URL from a SQLite path', () => {
    expect(isPostgresUrl('postgres://u@h:5432/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('./postgres.db')).toBe(false);
    expect(isPostgresUrl(':memory:')).toBe(false);
  });

  it('never shows credentials in messages', () => {
    expect(describeDatabase('postgres://alertform:s3cret@db.internal:5432/alertform?sslmode=require')).not.toMatch(/s3cret|alertform:/);
    expect(describeDatabase('./alertform.db')).toBe('./alertform.db');
    // libpq's multi-host syntax is not a WHATWG URL; its credentials go all the same.
    expect(describeDatabase('postgres://alertform:s3cret@db1:5432,db2:5432/alertform?target_session_attrs=read-write')).toBe(
      'postgres://db1:5432,db2:5432/alertform?target_session_attrs=read-write',
    );
    expect(describeDatabase('postgres://alertform:s3/cret@db1,db2/alertform')).toBe('(unparsable database URL)');
  });
});
