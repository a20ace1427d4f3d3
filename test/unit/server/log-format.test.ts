import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServerLogger, flushLog } from '../../../src/server/log-destination.js';
import { prettyLogLine } from '../../../src/server/log-pretty.js';

const dir = mkdtempSync(join(tmpdir(), 'alertform-log-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = new Date(2026, 10, 27, 14, 3, 7, 120).getTime();
const line = (entry: Record<string, unknown>) => `${JSON.stringify({ level: 'info', time: new Date(at).toISOString(), pid: 42, hostname: 'vm', ...entry })}\n`;

describe('readable log lines', () => {
  it('start with the local time, the level and the message; the other fields follow as key=value', () => {
    const text = prettyLogLine(
      line({ level: 'error', msg: 'notification delivery failed', component: 'deliveries', attempt: 1, deadLettered: true, error: 'email needs an SMTP server (alertform serve --smtp-url)' }),
      false,
    );
    expect(text).toBe(
      '14:03:07.120 ERROR notification delivery failed  component=deliveries attempt=1 deadLettered=true error="email needs an SMTP server (alertform serve --smtp-url)"\n',
    );
  });

  it('color the level only when asked, and write nested values as JSON', () => {
    expect(prettyLogLine(line({ level: 'warn', msg: 'slow', report: { alerts: 2 } }), true)).toBe('14:03:07.120 \u001b[33mWARN \u001b[39m slow  report={"alerts":2}\n');
  });

  it('let no logged text drive the terminal: control characters are written as escapes', () => {
    const text = prettyLogLine(line({ msg: 'alert \u001b[2Jnamed', alert: 'evil\u001b]0;title\u0007\nname' }), false);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).toBe('14:03:07.120 INFO  alert \\u001b[2Jnamed  alert="evil\\u001b]0;title\\u0007\\nname"\n');
  });

  it("put an error's stack under its line, indented", () => {
    const text = prettyLogLine(line({ level: 'error', msg: 'boom', err: { type: 'Error', message: 'no', stack: 'Error: no\n    at f (a.js:1:1)' } }), false);
    expect(text).toBe('14:03:07.120 ERROR boom  err="Error: no"\n    Error: no\n        at f (a.js:1:1)\n');
  });

  it("read a line of pino's default format too: the level's number, epoch milliseconds", () => {
    expect(prettyLogLine(`${JSON.stringify({ level: 40, time: at, msg: 'slow' })}\n`, false)).toBe('14:03:07.120 WARN  slow\n');
  });

  it('pass a line that is not JSON through as it is', () => {
    expect(prettyLogLine('not json\n', false)).toBe('not json\n');
  });
});

describe('the server logger', () => {
  async function logged(format: 'auto' | 'pretty' | 'json'): Promise<string> {
    const path = join(dir, `${format}.log`);
    const fd = openSync(path, 'w');
    const logger = createServerLogger('info', { format, fd });
    logger.info({ url: 'http://127.0.0.1:8080' }, 'server started');
    logger.debug('below the level');
    await flushLog(logger);
    closeSync(fd);
    return readFileSync(path, 'utf8');
  }

  it('writes JSON lines when not on a terminal (auto) or when told to, readable lines when told to', async () => {
    const auto = await logged('auto');
    const entry = JSON.parse(auto) as { time: string };
    // The level by name and the time in ISO 8601 UTC, as Loki and a person read them.
    expect(entry).toMatchObject({ level: 'info', msg: 'server started', url: 'http://127.0.0.1:8080' });
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(entry.time) - Date.now())).toBeLessThan(60_000);
    expect(JSON.parse(await logged('json'))).toMatchObject({ msg: 'server started' });
    // A file is no terminal: readable, but without colors.
    expect(await logged('pretty')).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  server started {2}url=http:\/\/127\.0\.0\.1:8080\n$/);
  });
});
