import { Socket } from 'node:net';

/** Node's own socket connect and fetch, as a worker had them before any test file (nock patches both). */
export interface NodeOriginals {
  connect: typeof Socket.prototype.connect;
  fetch: typeof fetch;
}

const ORIGINALS = Symbol.for('alertform.test.originalNetAndFetch');
const store = globalThis as Record<symbol, NodeOriginals | undefined>;

/** Keeps them, once per worker: called by a setup file, before any test file's imports can patch them. */
export function saveNodeOriginals(): NodeOriginals {
  return (store[ORIGINALS] ??= { connect: Socket.prototype.connect, fetch: globalThis.fetch });
}

/** Whether they were kept and are in place now: no interception (nock) active in this worker. */
export function nodeOriginalsInPlace(): boolean {
  const originals = store[ORIGINALS];
  return originals !== undefined && Socket.prototype.connect === originals.connect && globalThis.fetch === originals.fetch;
}
