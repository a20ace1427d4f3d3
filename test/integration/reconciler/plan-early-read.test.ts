import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AlertformClient } from '../../../src/client/api.js';
import { loadProject } from '../../../src/definitions/source.js';
import { planAgainstServer } from '../../../src/plan/make-plan.js';
import { planProject } from '../../../src/plan/plan-project.js';
import { writeDefinitionsDir } from '../../helpers/definitions-dir.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';

const NOW = new Date('2026-11-24T12:00:00Z');

/** A server whose list pages never end and never answer: what a read left running would keep asking. */
async function startEndlessServer(): Promise<{ url: string; open: () => number; requests: () => number; close: () => Promise<void> }> {
  let open = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    open += 1;
    res.on('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => open,
    requests: () => requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('a plan reads the server while its definitions load', { timeout: 120_000 }, () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer();
    dir = writeDefinitionsDir(mkdtempSync(join(tmpdir(), 'af-early-read-')), { alerts: 60, channels: 3, schedules: 2 });
  });
  afterAll(() => server?.close());

  it('plans exactly what reading after the load plans, for a server named by ALERTFORM_URL', async () => {
    const env = { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key };
    const request = { given: {}, trustProjectServer: false, missingHint: '' };
    const first = await planProject({ dir, env, server: request, now: NOW });
    if (first.status !== 'planned') throw new Error('the generated definitions do not load');
    expect(first.plan.summary.create).toBeGreaterThan(0);

    const loaded = await loadProject(dir, { env });
    const sequential = await planAgainstServer(loaded.definitions, new AlertformClient({ server: server.url, apiKey: server.key }), { prune: loaded.config.prune, now: NOW });
    expect(first.plan).toEqual(sequential.plan);
    expect(first.actual).toEqual(sequential.actual);
  });

  it('stops its read when the definitions do not load, leaving nothing running', async () => {
    const endless = await startEndlessServer();
    try {
      const bad = mkdtempSync(join(tmpdir(), 'af-early-read-bad-'));
      writeFileSync(join(bad, 'alerts.yaml'), 'alerts:\n  - name: broken\n    metric: a.b\n    alert_criteria: {type: above}\n');
      const reading = planProject({ dir: bad, env: { ALERTFORM_URL: endless.url, ALERTFORM_API_KEY: 'k' }, server: { given: {}, trustProjectServer: false, missingHint: '' } });
      const result = await reading;
      expect(result.status).toBe('invalid');
      // Every request the early read sent is given up: no socket stays open waiting for a page.
      await until(async () => endless.open(), (open) => open === 0);
      // One first page per list (schedules, channels, alerts, maintenance windows), none retried.
      expect(endless.requests()).toBeLessThanOrEqual(4);
    } finally {
      await endless.close();
    }
  });

  it('stops a read through a client given by the caller without retrying or announcing it', async () => {
    const endless = await startEndlessServer();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const bad = mkdtempSync(join(tmpdir(), 'af-early-read-client-'));
      writeFileSync(join(bad, 'alerts.yaml'), 'alerts:\n  - name: broken\n    metric: a.b\n    alert_criteria: {type: above}\n');
      const client = new AlertformClient({ server: endless.url, apiKey: 'k' });
      const result = await planProject({ dir: bad, env: {}, server: { client, printable: endless.url } });
      expect(result.status).toBe('invalid');
      await until(async () => endless.open(), (open) => open === 0);
      // One first page per list (schedules, channels, alerts, maintenance windows), none retried.
      expect(endless.requests()).toBeLessThanOrEqual(4);
      expect(stderr.mock.calls.map(([text]) => String(text)).join('')).not.toContain('retry');
    } finally {
      stderr.mockRestore();
      await endless.close();
    }
  });

  it('says nothing of an early read that failed: a server that is down is reported once, as before', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const bad = mkdtempSync(join(tmpdir(), 'af-early-read-down-'));
      writeFileSync(join(bad, 'alerts.yaml'), 'alerts:\n  - name: broken\n    metric: a.b\n    alert_criteria: {type: above}\n');
      // Port 9 (discard) refuses connections here: the early read fails at once, and silently.
      const result = await planProject({ dir: bad, env: { ALERTFORM_URL: 'http://127.0.0.1:9', ALERTFORM_API_KEY: 'k' }, server: { given: {}, trustProjectServer: false, missingHint: '' } });
      expect(result.status).toBe('invalid');
      expect(stderr.mock.calls.map(([text]) => String(text)).join('')).not.toContain('retry');
    } finally {
      stderr.mockRestore();
    }
  });
});
