import { Socket } from 'node:net';
import { afterAll } from 'vitest';
import { nodeOriginalsInPlace, saveNodeOriginals } from './node-originals.js';

/**
 * A setup file of the projects whose files share a worker: each file must leave node's sockets and fetch as it found
 * them. nock (through its interceptors) patches Socket.prototype.connect and fetch from its first import on; left
 * active, it swallowed the next file's raw carbon connections (they never closed) and passed its HTTP through nock.
 * A file that leaves them patched fails here, named, and the worker gets them back for the next file.
 */
// The first file of a worker meets them untouched: this setup runs before any test file's imports.
const originals = saveNodeOriginals();

afterAll(async () => {
  if (nodeOriginalsInPlace()) return;
  const { default: nock } = await import('nock');
  if (nock.isActive()) nock.restore();
  Socket.prototype.connect = originals.connect;
  globalThis.fetch = originals.fetch;
  throw new Error('this file left node:net or fetch patched (nock still active?): call nockForThisFile() at the top of a file that uses nock');
});
