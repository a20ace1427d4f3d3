/**
 * How far a long read has got: a page of a server list, or answers of the backtest's render requests. The reads
 * happen deep in the client and the backtest; a caller that shows progress (the CLI, on a terminal) passes a
 * reporter down to them, and a caller that does not passes nothing.
 */
export type ReadProgress = { kind: 'list'; list: string; items: number } | { kind: 'series'; done: number; total: number };

/** Told each step of a long read. */
export type ReadReporter = (progress: ReadProgress) => void;
