/**
 * One series of a Graphite render answer (`format=json`): what the render client (graphite/) reads and the evaluator
 * judges. It lives here, with its reader, so evaluation/ needs nothing of the client.
 */
export interface RenderSeries {
  /** The series name Graphite reports: the expanded path for plain and wildcard targets, or the function text. */
  target: string;
  /**
   * `[value, unix seconds]` pairs, oldest first; a value is null where the series has no data. Kept as Graphite
   * sent them: readers treat a value that is not a finite number as null.
   */
  datapoints: [number | null, number][];
  /**
   * The same points packed as value, time, value, time, ... (NaN where the value is null), when the render client's
   * reader made them (graphite/render-json.ts): the evaluator reads these, and `datapoints` is then built only when asked.
   */
  readonly packed?: Float64Array;
}
