import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelBufferBytes } from '../helpers/kernel-buffers.js';
import { runCli } from '../helpers/run-cli.js';

// Before: the CLI read a server's answer whole, whatever its size (3 GB to `pull` peaked at 6.2 GB of memory) and,
// when that failed, asked four more times. After: at most 64 MiB per answer (ALERTFORM_MAX_ANSWER_BYTES), a clear
// error as soon as an answer passes it, and no retry. The streamed answers here pass a cap of 4 MiB set by the
// variable: the reader stops the same way at any cap, and streaming 64 MiB to each of pull's lists cost the run 7
// core-seconds (test/unit/client/capped-answer.test.ts holds the default).

const MiB = 1024 * 1024;
/** The cap the streamed answers pass. */
const capMiB = 4;
/**
 * The streamed answer: the cap the reader may take, what the kernel may hold for the connection past that (the
 * sender's count includes it), and 16 MiB more, so that "the reader stopped before the end" can only fail when it did
 * not stop.
 */
const streamedMiB = capMiB + Math.ceil(kernelBufferBytes() / MiB) + 16;
const dir = mkdtempSync(join(tmpdir(), 'af-answer-cap-'));

/** A "server" whose every answer is a valid JSON list of `mib` MiB, sent 1 MiB at a time as the reader takes it. */
let server: Server;
let url: string;
const seen: Array<{ path: string; sentMiB: number; declared: boolean }> = [];
let mode: { mib: number; declareLength: boolean } = { mib: streamedMiB, declareLength: false };
beforeAll(async () => {
  server = createServer((req, res) => {
    const record = { path: req.url ?? '', sentMiB: 0, declared: mode.declareLength };
    seen.push(record);
    const pad = 'x'.repeat(MiB);
    const head = '[{"pad":"';
    const tail = '"}]';
    const size = head.length + mode.mib * MiB + tail.length;
    res.writeHead(200, { 'content-type': 'application/json', ...(mode.declareLength ? { 'content-length': String(size) } : {}) });
    res.write(head);
    let sent = 0;
    const more = () => {
      while (sent < mode.mib && !res.destroyed) {
        sent += 1;
        record.sentMiB = sent;
        if (!res.write(pad)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end(tail);
    };
    res.on('close', () => res.destroy());
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const pull = (out: string, env: NodeJS.ProcessEnv = {}) =>
  runCli(['pull', '--out', join(dir, out), '--server', url], { env: { ALERTFORM_API_KEY: 'a-key-of-the-hostile-server-0123', ...env }, timeoutMs: 120_000 });

describe('answers larger than the cap', () => {
  it('stop `pull` with a clear error after the cap, asked once, nothing written', async () => {
    seen.length = 0;
    mode = { mib: streamedMiB, declareLength: false };
    const result = await pull('streamed', { ALERTFORM_MAX_ANSWER_BYTES: String(capMiB * MiB) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v2\/\S+ answered more than 4 MiB: stopped reading it \(set ALERTFORM_MAX_ANSWER_BYTES/);
    expect(result.stderr).not.toContain('retry');
    // One request per list pull asked for, none asked twice; the reader stopped long before the end.
    expect(new Set(seen.map((s) => s.path)).size).toBe(seen.length);
    expect(Math.max(...seen.map((s) => s.sentMiB))).toBeLessThan(streamedMiB);
    expect(() => readdirSync(join(dir, 'streamed'))).toThrow();
  }, 150_000);

  it('are refused before reading when Content-Length says so, and ALERTFORM_MAX_ANSWER_BYTES sets the cap', async () => {
    seen.length = 0;
    mode = { mib: 3, declareLength: true };
    const result = await pull('declared', { ALERTFORM_MAX_ANSWER_BYTES: String(2 * MiB) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('answered more than 2 MiB: stopped reading it');
    expect(new Set(seen.map((s) => s.path)).size).toBe(seen.length);
    const bad = await pull('bad-setting', { ALERTFORM_MAX_ANSWER_BYTES: 'lots' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('ALERTFORM_MAX_ANSWER_BYTES must be a whole number of bytes, not "lots"');
  }, 150_000);
});
