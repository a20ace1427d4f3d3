import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/run-cli.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';

// Before: `pull` wrote the descriptions of channels it left out (an `Email me` without a destination) into a YAML
// comment as they were: a description with newlines closed the comment and wrote live YAML (an `alerts:` block
// that validate accepted and plan created). After: every server string pull writes, comments included, is escaped,
// and pulled files plan as no-op whatever the names hold (newlines, `#`, `---`, anchors, aliases, `${VAR}`).

const dir = mkdtempSync(join(tmpdir(), 'af-pull-escaping-'));
const INJECTED = 'Email me\nalerts:\n  - name: injected\n    metric: injected.metric\n    alert_criteria: {type: above, above_value: 1}\n#';
const HOSTILE = [
  'line one\nline two',
  'ends with a comment # like this',
  '---\nkind: not a document',
  '&anchor first',
  '*anchor',
  '<<: *anchor',
  'uses ${HOME} and $${X} and ${NOT_SET:-x}',
  '\u2028separated\u2029\u0085',
  "quote ' and \" and \\",
  '%YAML 1.1',
  '@at `tick` | pipe > fold',
];

let server: ServeProcess;
beforeAll(async () => {
  server = await spawnServe({ db: join(dir, 'pull.db') });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key, HOME: '/home/someone' } });

describe('pull with hostile names', () => {
  it('writes files that hold only what the server has, and plan as no-op', async () => {
    // The account's `Email me` (no destination: left out, named in a comment) gets a description that is YAML.
    const channels = (await callServe(server, 'GET', '/v2/notifications/')).body.notifications as Array<{ id: number | string; description: string; destination: string }>;
    const emailMe = channels.find((c) => !c.destination);
    expect(emailMe).toBeDefined();
    expect((await callServe(server, 'PUT', `/v2/notifications/${emailMe!.id}/`, { description: INJECTED })).status).toBe(200);
    for (const [i, name] of HOSTILE.entries()) {
      const channel = await callServe(server, 'POST', '/v2/notifications/', { type: 'webhook', description: name, destination: `https://hooks.example.com/${i}` });
      expect([name, channel.status]).toEqual([name, 201]);
      const alert = await callServe(server, 'POST', '/v2/alerts/', {
        name,
        metric: `app.metric${i}`,
        alert_criteria: { type: 'above', above_value: i + 1 },
        notification_channels: [name, INJECTED],
        info: name,
      });
      expect([name, alert.status]).toEqual([name, 201]);
    }
    for (const name of HOSTILE.slice(0, 3)) {
      const schedule = await callServe(server, 'POST', '/v2/schedules/', { name, start_time: '02:00', duration: 60, repeat: ['sun'] });
      expect([name, schedule.status]).toEqual([name, 201]);
    }

    const out = join(dir, 'pulled');
    const pulled = await cli(['pull', '--out', out]);
    expect(pulled.code, pulled.stderr).toBe(0);
    const channelsYaml = readFileSync(join(out, 'channels.yaml'), 'utf8');
    // The left-out channel is named in one comment line, escaped.
    const comment = channelsYaml.split('\n').find((line) => line.startsWith('# Left out'))!;
    expect(comment).toContain(JSON.stringify(INJECTED).slice(1, -1));
    for (const file of readdirSync(out).filter((name) => name.endsWith('.yaml'))) {
      const docs = parseAllDocuments(readFileSync(join(out, file), 'utf8'));
      expect([file, docs.length]).toEqual([file, 1]);
      expect([file, Object.keys((docs[0] as { toJS(): Record<string, unknown> }).toJS())]).toEqual([file, [file.replace('.yaml', '')]]);
    }

    const validate = await cli(['validate', out]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    const plan = await cli(['plan', out, '--detailed-exitcode', '--json']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const changes = JSON.parse(plan.stdout) as { changes: unknown[] };
    expect(changes.changes).toEqual([]);
  }, 120_000);
});
