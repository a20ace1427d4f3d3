import { describe, expect, it } from 'vitest';
import { PathTable, hashBytes } from '../../../src/stream/path-table.js';

const idOf = (table: PathTable, path: string, hash?: number) => {
  const bytes = Buffer.from(`xx ${path} yy`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const end = 3 + Buffer.byteLength(path);
  return table.idOf(bytes, view, 3, end, hash ?? hashBytes(bytes, 3, end, table.seed));
};

describe('the path table', () => {
  it('gives each distinct path one id, found again by its bytes, and makes its string once', () => {
    const table = new PathTable({ maxPaths: 100_000 });
    const paths = Array.from({ length: 5000 }, (_, k) => `servers.host${k}.cpu.${k % 7 === 0 ? 'ü' : 'user'}`);
    const ids = paths.map((path) => idOf(table, path));
    expect(new Set(ids).size).toBe(paths.length);
    // Grown several times meanwhile: every id is still found, at every offset within a word.
    paths.forEach((path, k) => expect(idOf(table, path)).toBe(ids[k]));
    paths.forEach((path, k) => expect(table.idOfString(path)).toBe(ids[k]));
    paths.forEach((path, k) => expect(table.pathOf(ids[k]!)).toBe(path));
    expect(table.pathOf(ids[3]!)).toBe(table.pathOf(ids[3]!));
    expect(table.size).toBe(paths.length);
  });

  it('tells apart paths whose hashes collide, and paths that share a prefix', () => {
    const table = new PathTable();
    // Every path given the same hash: the bytes decide.
    const same = ['a.b.c.d', 'a.b.c.e', 'a.b.c.d.', 'a.b.c', 'a.b.c.dd', 'b.b.c.d'];
    const ids = same.map((path) => idOf(table, path, 12345));
    expect(new Set(ids).size).toBe(same.length);
    same.forEach((path, k) => expect(idOf(table, path, 12345)).toBe(ids[k]));
    same.forEach((path, k) => expect(table.pathOf(ids[k]!)).toBe(path));
  });

  it('hashes differently per table, so a sender cannot aim paths at one slot chain', () => {
    const bytes = Buffer.from('servers.web1.cpu');
    const seeds = new Set(Array.from({ length: 8 }, () => hashBytes(bytes, 0, bytes.length, new PathTable().seed)));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('is emptied when full at the next reserve, and its ids of before are void (the epoch moves on)', () => {
    const table = new PathTable({ maxPaths: 10 });
    for (let k = 0; k < 12; k += 1) idOf(table, `p.${k}`);
    // Within a chunk the table may run past the bound; the next chunk starts it anew.
    expect(table.size).toBe(12);
    const epoch = table.epoch;
    table.reserve();
    expect(table.size).toBe(0);
    expect(table.epoch).toBe(epoch + 1);
    expect(idOf(table, 'p.11')).toBe(0);
    expect(table.pathOf(0)).toBe('p.11');
    table.reserve();
    expect(table.size).toBe(1);
  });

  it('drops the string of a released path and makes it again when asked', () => {
    const table = new PathTable();
    const id = table.idOfString('unmatched.path');
    table.release(id);
    expect(table.pathOf(id)).toBe('unmatched.path');
  });
});
