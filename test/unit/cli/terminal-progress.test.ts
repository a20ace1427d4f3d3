import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertformClient } from '../../../src/client/api.js';
import { planProject } from '../../../src/plan/plan-project.js';
import { writeDefinitionsDir } from '../../helpers/definitions-dir.js';
import { showReadProgress } from '../../../src/cli/terminal-progress.js';
import type { ReadProgress } from '../../../src/progress/reads.js';
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
    await new AlertformClient({ server: server.authUrl, reportRead: (p) => seen.push(p) }).listAlerts();
    expect(seen).toEqual([{ kind: 'list', list: 'alerts', items: 3 }]);
  });

  it("reaches the plan's reads, whether they start while the definitions load or after", async () => {
    const dir = writeDefinitionsDir(mkdtempSync(join(tmpdir(), 'af-progress-')), { alerts: 2, channels: 1, schedules: 1 });
    const listsRead = async (env: NodeJS.ProcessEnv) => {
      const seen: ReadProgress[] = [];
      const result = await planProject({ dir, env, server: { trustProjectServer: true, missingHint: '' }, reportRead: (p) => seen.push(p) });
      expect(result.status).toBe('planned');
      return seen.map((p) => (p.kind === 'list' ? p.list : p.kind)).sort();
    };
    // ALERTFORM_URL names the server before the load: the early read.
    expect(await listsRead({ ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key })).toEqual(['alerts', 'channels', 'maintenanceWindows', 'schedules']);
    // Only alertform.yaml names it: the read after the load.
    writeFileSync(join(dir, 'alertform.yaml'), `server: ${server.url}\n`);
    expect(await listsRead({ ALERTFORM_API_KEY: server.key })).toEqual(['alerts', 'channels', 'maintenanceWindows', 'schedules']);
  });

  it('shows one status line rewritten in place once the read is slow, and erases it at the end', () => {
    let clock = 0;
    const terminal = fakeTerminal(true);
    const { report, stop } = showReadProgress(terminal, { delayMs: 300, everyMs: 100, now: () => clock });
    report({ kind: 'list', list: 'alerts', items: 100 });
    expect(terminal.writes).toEqual([]); // a quick read shows nothing
    clock = 400;
    report({ kind: 'list', list: 'alerts', items: 1200 });
    report({ kind: 'list', list: 'channels', items: 40 });
    clock = 600;
    report({ kind: 'series', done: 2, total: 5 });
    report({ kind: 'series', done: 5, total: 5 }); // the last answer always shows
    stop();
    stop();
    clock = 1000;
    report({ kind: 'list', list: 'alerts', items: 1300 }); // a read after the line was erased (apply's writes) shows nothing
    expect(terminal.writes).toEqual(['\r\x1b[2Kreading alerts 1,200', '\r\x1b[2Kbacktest: 2/5 series read', '\r\x1b[2Kbacktest: 5/5 series read', '\r\x1b[2K']);
  });

  it('writes nothing when stderr is not a terminal (a pipe, a CI log)', () => {
    const pipe = fakeTerminal(false);
    const { report, stop } = showReadProgress(pipe, { delayMs: 0, now: () => 1000 });
    report({ kind: 'list', list: 'alerts', items: 5 });
    stop();
    expect(pipe.writes).toEqual([]);
  });
});
