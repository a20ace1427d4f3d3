import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ keys: ['definition-key', 'other-key'] });
  dir = mkdtempSync(join(tmpdir(), 'alertform-definition-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key } });
const idOf = async (name: string) => (await server.request('GET', `/v2/alerts/?name=${encodeURIComponent(name)}`)).body.alerts[0].id as string;

describe('the definition of an alert', { timeout: 120_000 }, () => {
  it('is the YAML pull writes, marked managed from git once apply wrote it, and the mark never shows in a plan', async () => {
    writeFileSync(
      join(dir, 'alerts.yaml'),
      [
        'schedules:',
        '  - name: nightly',
        '    start_time: "02:00"',
        '    duration: 60',
        'alerts:',
        '  - name: Disk full',
        '    metric: hosts.*.disk.used_percent',
        '    alert_criteria: { type: above, above_value: 90, time_period: 5 }',
        '    notification_type: [every, 30]',
        '    scheduled_mutes: [nightly]',
        '    info: "Runbook: <clean /var>"',
        '',
      ].join('\n'),
    );
    const applied = await cli(['apply', dir, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const handMade = await server.request('POST', '/v2/alerts/', { name: 'by hand', metric: 'x.y', alert_criteria: { type: 'below', below_value: 1 } });
    expect(handMade.status).toBe(201);

    const id = await idOf('Disk full');
    const definition = await server.request('GET', `/v2/alerts/${id}/definition/`);
    expect(definition.status).toBe(200);
    expect(definition.body.managed_from_git).toBe(true);
    expect(definition.body.yaml).toBe(
      [
        '# yaml-language-server: $schema=.alertform/schemas/definitions.schema.json',
        'alerts:',
        '  - name: Disk full',
        '    metric: hosts.*.disk.used_percent',
        '    alert_criteria:',
        '      type: above',
        '      above_value: 90',
        '      time_period: 5',
        '    notification_type:',
        '      - every',
        '      - 30',
        '    scheduled_mutes:',
        '      - nightly',
        '    info: "Runbook: <clean /var>"',
        '',
      ].join('\n'),
    );
    const pulledDir = join(dir, 'pulled');
    expect((await cli(['pull', '--out', pulledDir])).code).toBe(0);
    expect(readFileSync(join(pulledDir, 'alerts.yaml'), 'utf8')).toContain(definition.body.yaml.split('\n').slice(2).join('\n'));

    const byHand = await server.request('GET', `/v2/alerts/${handMade.body.id}/definition/`);
    expect(byHand.body.managed_from_git).toBe(false);
    // A hand edit of a defined alert keeps the mark (it is drift, not a change of owner).
    expect((await server.request('PUT', `/v2/alerts/${id}/`, { info: 'edited by hand' })).status).toBe(200);
    expect((await server.request('GET', `/v2/alerts/${id}/definition/`)).body.managed_from_git).toBe(true);
    expect((await server.request('GET', `/v2/alerts/${id}/definition/`, undefined, { key: 'other-key' })).status).toBe(404);
  });

  it('plans clean after apply: the mark is not part of the alert', async () => {
    const only = mkdtempSync(join(tmpdir(), 'alertform-definition-clean-'));
    try {
      writeFileSync(join(only, 'alerts.yaml'), 'alerts:\n  - name: Clean\n    metric: a.b\n    alert_criteria: { type: above, above_value: 1 }\n');
      const scoped = (args: string[]) => runCli(args, { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: 'other-key' } });
      expect((await scoped(['apply', only, '--auto-approve'])).code).toBe(0);
      const plan = await scoped(['plan', only, '--json', '--detailed-exitcode']);
      expect(JSON.parse(plan.stdout)).toMatchObject({ hasChanges: false });
      expect(plan.code).toBe(0);
      const id = (await server.request('GET', '/v2/alerts/?name=Clean', undefined, { key: 'other-key' })).body.alerts[0].id;
      expect((await server.request('GET', `/v2/alerts/${id}/definition/`, undefined, { key: 'other-key' })).body.managed_from_git).toBe(true);
    } finally {
      rmSync(only, { recursive: true, force: true });
    }
  });
});
