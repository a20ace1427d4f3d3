import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertformClient } from '../../../src/client/api.js';
import { showReadProgress } from '../../../src/cli/terminal-progress.js';
import { onReadProgress, reportRead, type ReadProgress } from '../../../src/progress/reads.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

function fakeTerminal(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (text: string) => writes.push(text) };
}

describe('read progress on a terminal', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('is told page by page while the client reads a list from the server', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await server.request('POST', '/v2/alerts/', { name: `a${i}`, metric: 'm', alert_criteria: { type: 'above', above_value: 1 } })).status).toBe(201);
    }
    const seen: ReadProgress[] = [];
    const stop = onReadProgress((p) => seen.push(p));
    await new AlertformClient({ server: server.authUrl }).listAlerts();
    stop();
    expect(seen).toEqual([{ kind: 'list', list: 'alerts', items: 3 }]);
  });

  it('shows one status line rewritten in place once the read is slow, and erases it at the end', () => {
    let clock = 0;
    const terminal = fakeTerminal(true);
    const stop = showReadProgress(terminal, { delayMs: 300, everyMs: 100, now: () => clock });
    reportRead({ kind: 'list', list: 'alerts', items: 100 });
    expect(terminal.writes).toEqual([]); // a quick read shows nothing
    clock = 400;
    reportRead({ kind: 'list', list: 'alerts', items: 1200 });
    reportRead({ kind: 'list', list: 'channels', items: 40 });
    clock = 600;
    reportRead({ kind: 'series', done: 2, total: 5 });
    reportRead({ kind: 'series', done: 5, total: 5 }); // the last answer always shows
    stop();
    stop();
    expect(terminal.writes).toEqual(['\r\x1b[2Kreading alerts 1,200', '\r\x1b[2Kbacktest: 2/5 series read', '\r\x1b[2Kbacktest: 5/5 series read', '\r\x1b[2K']);
  });

  it('writes nothing when stderr is not a terminal (a pipe, a CI log)', () => {
    const pipe = fakeTerminal(false);
    const stop = showReadProgress(pipe, { delayMs: 0, now: () => 1000 });
    reportRead({ kind: 'list', list: 'alerts', items: 5 });
    stop();
    expect(pipe.writes).toEqual([]);
  });
});
