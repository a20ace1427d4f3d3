import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keepStatementsAlive, openDatabase } from '../../../../src/server/store/sqlite/open-database.js';

describe('the SQLite statement cache', () => {
  it('returns the statement already prepared for the same SQL', () => {
    const db = openDatabase(':memory:');
    try {
      expect(db.prepare('SELECT 1 AS one')).toBe(db.prepare('SELECT 1 AS one'));
      expect(db.prepare('SELECT 1 AS one')).not.toBe(db.prepare('SELECT 2 AS one'));
    } finally {
      db.close();
    }
  });

  it('gives a reused statement back with pluck off, so one caller\'s mode never leaks to the next', () => {
    const db = new Database(':memory:');
    keepStatementsAlive(db);
    try {
      expect(db.prepare('SELECT 7 AS seven').pluck().get()).toBe(7);
      expect(db.prepare('SELECT 7 AS seven').get()).toEqual({ seven: 7 });
      expect(db.prepare('SELECT 7 AS seven').raw().get()).toEqual([7]);
      expect(db.prepare('SELECT 7 AS seven').get()).toEqual({ seven: 7 });
    } finally {
      db.close();
    }
  });

  it('prepares a fresh statement while the cached one is still iterating', () => {
    const db = openDatabase(':memory:');
    try {
      const sql = 'SELECT value FROM json_each(?)';
      const seen: unknown[] = [];
      for (const row of db.prepare(sql).iterate('[1,2]') as Iterable<{ value: number }>) {
        seen.push(row.value, (db.prepare(sql).all('[9]') as { value: number }[])[0]!.value);
      }
      expect(seen).toEqual([1, 9, 2, 9]);
    } finally {
      db.close();
    }
  });
});

describe('search queries on SQLite', () => {
  const searches = [
    'SELECT a.* FROM alerts a WHERE a.account_id = ? ORDER BY a.seq LIMIT ? OFFSET ?',
    'SELECT * FROM channels WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?',
    'SELECT * FROM schedules WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?',
  ];
  it.each(searches)('page through an index instead of sorting every row of the account: %s', (sql) => {
    const db = openDatabase(':memory:');
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('account', 100, 0) as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
      expect(plan).toMatch(/USING INDEX \w+_account_seq/);
      expect(plan).not.toContain('TEMP B-TREE');
    } finally {
      db.close();
    }
  });

  it('answers pragmas as better-sqlite3 does, through the cached statements', () => {
    const db = openDatabase(':memory:');
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0); // migrated
      expect(db.pragma('foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      expect(db.pragma('busy_timeout = 4000')).toEqual([{ timeout: 4000 }]);
      expect(db.pragma('optimize')).toEqual([]);
      expect(db.prepare('PRAGMA user_version')).toBe(db.prepare('PRAGMA user_version'));
    } finally {
      db.close();
    }
  });
});
