import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrateDatabase } from '../../../../src/server/store/sqlite/migrations.js';
import { openDatabase } from '../../../../src/server/store/sqlite/open-database.js';

// What only SQLite has: pragmas and user_version migrations. The Store contract is in store.test.ts.
describe('opening a database', () => {
  it('turns on foreign keys and synchronous=FULL (every commit fsynced)', () => {
    const db = openDatabase(':memory:');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });
});

describe('migrations', () => {
  it('bring an empty database to the newest version, and do nothing the second time', () => {
    const db = new Database(':memory:');
    expect(migrateDatabase(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(() => migrateDatabase(db)).not.toThrow();
    db.close();
  });

  it('refuse a database newer than the code', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    expect(() => migrateDatabase(db)).toThrow(/newer/);
    db.close();
  });
});
