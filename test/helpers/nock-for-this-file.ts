import nock from 'nock';
import { afterAll, beforeAll } from 'vitest';

/**
 * nock, switched on for the calling test file only. The server projects run several files in one worker (they do
 * not isolate files) and nock patches node's http and fetch for the whole process from its first import on: this
 * turns it on at the file's start (again, where an earlier file of the worker let it go) and lets go of node's http
 * and fetch at the file's end, so that the next file's requests are real ones rather than passed through nock.
 * The file keeps its own rules on which hosts may be reached (`nock.disableNetConnect()`...); this lifts them at
 * its end, with its interceptors.
 */
export function nockForThisFile(): void {
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
  });
}
