import type { PathTable } from './path-table.js';

/**
 * The points of one chunk in columns: a path id (of `table`), a value and a timestamp each, in typed arrays reused
 * from chunk to chunk. The receiver hands this over instead of an object per point; the consumer reads it before
 * the next chunk is parsed into it, and asks the table for a path's string only when it needs one.
 */
export class PointBatch {
  length = 0;
  ids: Int32Array;
  values: Float64Array;
  /** Unix seconds, whole. */
  timestamps: Float64Array;

  constructor(
    readonly table: PathTable,
    capacity = 4096,
  ) {
    this.ids = new Int32Array(capacity);
    this.values = new Float64Array(capacity);
    this.timestamps = new Float64Array(capacity);
  }

  /** Empties the batch (its arrays are kept). */
  clear(): void {
    this.length = 0;
  }

  push(id: number, value: number, timestamp: number): void {
    const at = this.length;
    if (at === this.ids.length) this.grow();
    this.ids[at] = id;
    this.values[at] = value;
    this.timestamps[at] = timestamp;
    this.length = at + 1;
  }

  private grow(): void {
    const capacity = this.ids.length * 2;
    const ids = new Int32Array(capacity);
    ids.set(this.ids);
    const values = new Float64Array(capacity);
    values.set(this.values);
    const timestamps = new Float64Array(capacity);
    timestamps.set(this.timestamps);
    this.ids = ids;
    this.values = values;
    this.timestamps = timestamps;
  }
}
