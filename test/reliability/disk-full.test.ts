import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { callServe, spawnServe } from '../helpers/server-process.js';
import { mountSmallDisk, smallDiskAvailability } from '../helpers/small-disk.js';

const availability = smallDiskAvailability();
const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe.skipIf(availability.skip)('SQLite on a full disk', () => {
  it('refuses writes with 507 and a JSON error saying the disk is full, never a 500, still reads, writes again once space is freed, and keeps every acknowledged write across kill -9', async () => {
    const disk = mountSmallDisk(8 * 1024 * 1024);
    closers.push(() => disk.remove());
    const db = join(disk.dir, 'alertform.db');
    const key = 'disk-full-key-of-at-least-24-characters';
    let server = await spawnServe({ db, key });
    closers.push(() => server.kill());

    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let written = 0;
    /** Creates one webhook channel; records the answer. */
    const write = async () => {
      const description = `disk-${written++}`;
      const answer = await callServe(server, 'POST', '/v2/notifications/', { type: 'webhook', description, destination: `https://hooks.example.com/${description}/${'x'.repeat(200)}` });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 201) acknowledged.push(description);
      return answer;
    };
    for (let i = 0; i < 20; i += 1) expect((await write()).status).toBe(201);

    // Leave a few pages free: the writes fill them, then the file system says ENOSPC.
    disk.fill(48 * 1024);
    let refused: Awaited<ReturnType<typeof write>> | undefined;
    for (let i = 0; i < 2_000 && !refused; i += 1) {
      const answer = await write();
      if (answer.status !== 201) refused = answer;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/no space left/) } });
    for (let i = 0; i < 10; i += 1) expect((await write()).status).toBe(507);
    // Reads still answer.
    const listed = await callServe(server, 'GET', '/v2/notifications/');
    expect(listed.status).toBe(200);
    expect([...statuses.keys()].sort()).toEqual([201, 507]);

    // Space is freed: writes go through again, without a restart.
    disk.unfill();
    expect((await write()).status).toBe(201);
    expect(server.stderr()).not.toMatch(/unexpected error/);
    expect(server.stderr()).toMatch(/database disk full/);

    // Nothing acknowledged was lost, even by a crash right after.
    expect(await server.kill()).toBe('SIGKILL');
    server = await spawnServe({ db, key });
    expect((await write()).status).toBe(201);
    await server.stop();
    const sqlite = new Database(db, { readonly: true });
    const stored = new Set((sqlite.prepare(`SELECT description FROM channels WHERE description LIKE 'disk-%'`).all() as { description: string }[]).map((row) => row.description));
    sqlite.close();
    expect(acknowledged.filter((description) => !stored.has(description))).toEqual([]);
    console.info(`disk full: ${acknowledged.length} writes acknowledged, ${statuses.get(507)} refused with 507, none lost`);
  }, 60_000);
});
