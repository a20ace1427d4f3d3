import { EventEmitter } from 'node:events';

/**
 * How far a long read has got: a page of a server list, or answers of the backtest's render requests. The reads
 * happen deep in the client and the backtest; a terminal front end listens here instead of every function between
 * them passing a callback down. Nothing listens unless someone asked (the CLI, on a terminal).
 */
export type ReadProgress = { kind: 'list'; list: string; items: number } | { kind: 'series'; done: number; total: number };

const emitter = new EventEmitter();

export function reportRead(progress: ReadProgress): void {
  if (emitter.listenerCount('read') > 0) emitter.emit('read', progress);
}

/** Listens to read progress until the returned function is called. */
export function onReadProgress(listener: (progress: ReadProgress) => void): () => void {
  emitter.on('read', listener);
  return () => emitter.off('read', listener);
}
