import { describe, expect, it } from 'vitest';
import type { CarbonPoint } from '../../../src/stream/carbon-point.js';
import { PlaintextParser } from '../../../src/stream/plaintext-parser.js';
import { PointBatch } from '../../../src/stream/point-batch.js';
import { StreamIngest } from '../../../src/stream/stream-ingest.js';

const lines = (count: number, from = 0) =>
  Buffer.from(Array.from({ length: count }, (_, k) => `servers.host${(from + k) % 50}.cpu.user ${k % 10} ${1_700_000_000 + k * 10}\n`).join(''));

const ingestOf = (cacheSize = 1000) => new StreamIngest<string>({ cacheSize, maxSeries: 1000, maxPointsPerSeries: 100 });

/** Feeds chunks to `ingest` as the receiver does (one parser and one reused batch); answers how many matched. */
function feederOf(ingest: StreamIngest<string>): (bytes: Buffer) => number {
  const parser = new PlaintextParser({ maxLineBytes: 100 });
  const batch = new PointBatch(ingest.table);
  return (bytes) => {
    batch.clear();
    parser.pushBatch(bytes, batch);
    return ingest.acceptBatch(batch);
  };
}

describe('the ingest fed in columns', () => {
  it('matches, counts and keeps the same points as when fed point objects', () => {
    const columns = ingestOf();
    const objects = ingestOf();
    for (const ingest of [columns, objects]) {
      ingest.subscribe('glob', ['servers.host1*.cpu.*'], null, 600);
      ingest.subscribe('plain', ['servers.host2.cpu.user'], null, 600);
      ingest.subscribe('confined', ['servers.*.cpu.user'], ['servers.host3'], 600);
    }
    const heardColumns: string[] = [];
    const heardObjects: string[] = [];
    columns.onMatched((matched) => matched.forEach(({ point, subscribers }) => heardColumns.push(`${point.path}@${point.timestamp}:${subscribers.join('+')}`)));
    objects.onMatched((matched) => matched.forEach(({ point, subscribers }) => heardObjects.push(`${point.path}@${point.timestamp}:${subscribers.join('+')}`)));
    const bytes = lines(500);
    const parser = new PlaintextParser({ maxLineBytes: 100 });
    const batch = new PointBatch(columns.table);
    // Cut mid-line: the batch path sees lines spanning chunks as a socket gives them.
    for (const chunk of [bytes.subarray(0, 777), bytes.subarray(777)]) {
      batch.clear();
      parser.pushBatch(chunk, batch);
      columns.acceptBatch(batch);
    }
    const points: CarbonPoint[] = [];
    new PlaintextParser({ maxLineBytes: 100 }).push(bytes, points);
    objects.accept(points);
    expect(columns.received).toBe(500);
    expect(columns.matched).toBe(objects.matched);
    // host1 and host10-19 (the glob), host2 (plain), host3 and host30-39 (confined): 23 of 50 hosts, 10 lines each.
    expect(columns.matched).toBe(230);
    expect(heardColumns).toEqual(heardObjects);
    expect(columns.rings.read('servers.host3.cpu.user', 0, 2e9)).toEqual(objects.rings.read('servers.host3.cpu.user', 0, 2e9));
    expect(columns.rings.stats()).toEqual(objects.rings.stats());
  });

  it('decides a path again when subscriptions change, and after its table was emptied', () => {
    const ingest = ingestOf(20);
    const feed = feederOf(ingest);
    expect(feed(lines(50))).toBe(0);
    ingest.subscribe('late', ['servers.host7.cpu.user'], null, 600);
    expect(feed(lines(50))).toBe(1);
    ingest.unsubscribe('late');
    expect(feed(lines(50))).toBe(0);
    ingest.subscribe('again', ['servers.host4*.cpu.user'], null, 600);
    // 50 paths past the table's 20: it is emptied between chunks, and ids are decided anew.
    const epoch = ingest.table.epoch;
    expect(feed(lines(50))).toBe(11);
    expect(ingest.table.epoch).toBeGreaterThan(epoch);
    expect(feed(lines(50, 3))).toBe(11);
    expect(ingest.table.size).toBeLessThanOrEqual(20 + 50);
  });

  it('keeps writing a series whose ring was forgotten (a new ring, never the dropped one)', () => {
    const ingest = ingestOf();
    ingest.subscribe('one', ['servers.host7.cpu.user'], null, 600);
    const feed = feederOf(ingest);
    expect(feed(lines(50))).toBe(1);
    // Long after the point: stale, so the sweep forgets the series and its ring.
    expect(ingest.sweep(1_800_000_000)).toBeGreaterThan(0);
    expect(ingest.rings.has('servers.host7.cpu.user')).toBe(false);
    expect(feed(Buffer.from('servers.host7.cpu.user 42 1800000000\n'))).toBe(1);
    expect(ingest.rings.read('servers.host7.cpu.user', 0, 2e9)).toEqual([[42, 1_800_000_000]]);
    expect(ingest.rings.stats().series).toBe(1);
  });
});
