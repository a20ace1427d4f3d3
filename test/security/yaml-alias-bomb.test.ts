import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/definitions/load.js';
import { formatProblem } from '../../src/definitions/problems.js';
import { parseProjectConfig } from '../../src/definitions/project.js';
import { threadCpuMs } from '../helpers/event-loop-lag.js';
import { runCli } from '../helpers/run-cli.js';

// Issue 12, item 6. Before: this file (9 levels of 9 aliases, 387 million strings once expanded) ran validate,
// plan and the Action out of memory (1.1 GB after 19 s; 6 levels already took 1.5 s and 128 MB here). After: a
// problem at the first alias, in milliseconds.
const BOMB = ['a: &a [l,l,l,l,l,l,l,l,l]', ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n') + '\n';
const MESSAGE = 'aliases expand this document far beyond its own size (more than 10000 extra nodes): refused, as a YAML alias bomb would be';

describe('YAML alias bombs', () => {
  it('are a few hundred bytes', () => {
    expect(BOMB.length).toBeLessThan(330);
  });

  it('are a problem at the first alias, found in milliseconds with bounded memory (validate, plan and the Action load this way)', () => {
    const heapBefore = process.memoryUsage().heapUsed;
    // This thread's CPU, not the clock: waiting for a core on a busy machine is not the parser's work.
    const started = threadCpuMs();
    const result = loadDefinitions([{ path: 'bomb.yaml', text: `alerts: []\n${BOMB}` }], { env: {} });
    const ms = threadCpuMs() - started;
    expect(result.problems.map(formatProblem)).toEqual([`bomb.yaml:3:8  .  ${MESSAGE}`]);
    expect(ms).toBeLessThan(1_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('are caught on the slow parser too (a file js-yaml refuses goes to yaml)', () => {
    // An unknown tag makes js-yaml throw (yaml only warns), so the file takes the position-keeping parser.
    const result = loadDefinitions([{ path: 'bomb.yaml', text: `${BOMB}x: !custom 1\n` }], { env: {} });
    expect(result.problems.map((p) => p.message)).toContain(MESSAGE);
  });

  it('still allow sane reuse: one anchor used by 2,000 alerts', () => {
    const alerts = Array.from({ length: 2_000 }, (_, i) => `  - {name: a${i}, metric: m.${i}, alert_criteria: *crit}`).join('\n');
    const text = `x-defaults:\n  crit: &crit {type: above, above_value: 1}\nalerts:\n${alerts}\n`;
    const result = loadDefinitions([{ path: 'ok.yaml', text }], { env: {} });
    expect(result.problems.map((p) => p.message)).not.toContain(MESSAGE);
  });

  it('in alertform.yaml are a problem too', () => {
    const result = parseProjectConfig(BOMB, 'alertform.yaml');
    expect(result.problems.map(formatProblem)).toEqual([`alertform.yaml:2:8  .  ${MESSAGE}`]);
  });
});

describe('alertform validate and plan on an alias bomb', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'alertform-bomb-'));
    await writeFile(join(dir, 'bomb.yaml'), BOMB);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([['validate'], ['plan']])('%s exits 1 naming file:line, quickly', async (command) => {
    const started = performance.now();
    const result = await runCli([command, dir, ...(command === 'plan' ? ['--server', 'http://127.0.0.1:9'] : [])], { env: { ALERTFORM_API_KEY: 'k' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`bomb.yaml:2:8  .  ${MESSAGE}`);
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
