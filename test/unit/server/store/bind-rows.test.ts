import { describe, expect, it } from 'vitest';
import { bindRows } from '../../../../src/server/store/bind-rows.js';

// A rows module in miniature: functions that take the database first, as sqlite/ and postgres/*-rows.ts do.
const db = { name: 'the-db' };
const rows = {
  countIn: (database: typeof db, table: string) => `${database.name}:${table}`,
  failing: (_database: typeof db): number => {
    throw new Error('constraint failed');
  },
  later: async (database: typeof db, n: number) => `${database.name}/${n}`,
  LIMIT: 10,
};

describe('bindRows', () => {
  it('gives each function the database and answers a promise, synchronous or not', async () => {
    const bound = bindRows(db, rows);
    const answer = bound.countIn('alerts');
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe('the-db:alerts');
    expect(await bound.later(3)).toBe('the-db/3');
  });

  it('turns a synchronous throw into a rejection, as an async method would', async () => {
    const bound = bindRows(db, rows);
    let call: Promise<number> | undefined;
    expect(() => (call = bound.failing())).not.toThrow();
    await expect(call).rejects.toThrow('constraint failed');
  });

  it('leaves out what is not a function', () => {
    expect(Object.keys(bindRows(db, rows)).sort()).toEqual(['countIn', 'failing', 'later']);
  });
});
