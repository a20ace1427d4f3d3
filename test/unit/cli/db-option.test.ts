import { afterEach, describe, expect, it } from 'vitest';
import { resolveDb } from '../../../src/cli/db-option.js';
import { describeDb, isPostgresUrl } from '../../../src/server/store/open-store.js';

const saved = process.env.ALERTFORM_DB;
afterEach(() => {
  if (saved === undefined) delete process.env.ALERTFORM_DB;
  else process.env.ALERTFORM_DB = saved;
});

describe('the --db option of serve and keys', () => {
  it('takes --db, else ALERTFORM_DB, else ./alertform.db', () => {
    delete process.env.ALERTFORM_DB;
    expect(resolveDb(undefined)).toBe('./alertform.db');
    process.env.ALERTFORM_DB = 'postgres://u@h/db';
    expect(resolveDb(undefined)).toBe('postgres://u@h/db');
    expect(resolveDb('/var/lib/a.db')).toBe('/var/lib/a.db');
  });

  it('tells a PostgreSQL URL from a SQLite path', () => {
    expect(isPostgresUrl('postgres://u@h:5432/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('./postgres.db')).toBe(false);
    expect(isPostgresUrl(':memory:')).toBe(false);
  });

  it('never shows a password or query parameters in messages', () => {
    expect(describeDb('postgres://alertform:s3cret@db.internal:5432/alertform?sslmode=require&password=x')).toBe(
      'postgres://alertform:***@db.internal:5432/alertform',
    );
    expect(describeDb('postgres://alertform@db/alertform')).toBe('postgres://alertform@db/alertform');
    expect(describeDb('./alertform.db')).toBe('./alertform.db');
  });
});
