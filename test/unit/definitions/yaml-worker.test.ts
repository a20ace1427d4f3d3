import { describe, expect, it } from 'vitest';
import { loadDefinitions, loadDefinitionsInSlices, type LoadResult, type SourceFile } from '../../../src/definitions/load.js';
import { formatProblem } from '../../../src/definitions/problems.js';
import { parseOnWorker } from '../../../src/definitions/yaml-worker.js';

/** What a load gives, with every location read (they are lazy) and the functions left out. */
function observable(result: LoadResult) {
  const items = [...result.definitions.alerts, ...result.definitions.channels, ...result.definitions.schedules];
  return {
    items: items.map((item) => ({ kind: item.kind, key: item.key, spec: item.spec, path: item.path, sensitivePaths: item.sensitivePaths, at: `${item.location.file}:${item.location.line}:${item.location.column}`, field: item.locate('name') })),
    problems: result.problems.map(formatProblem),
    files: result.files,
  };
}

const FILES: SourceFile[] = [
  {
    path: 'alerts.yaml',
    text: `alerts:
  - name: cpu
    metric: servers.*.cpu
    alert_criteria: {type: above, above_value: 90, time_period: 5}
    notification_channels: [ops]
    info: "\${RUNBOOK}"
  - name: composite
    metric: sumSeries(a.*.b)
    alert_criteria: {type: below, below_value: .inf}
    additional_criteria:
      b: {type: above, above_value: -0.0, metric: x.y}
    expression: a && b
`,
  },
  { path: 'anchors.yaml', text: `shared: &c {type: above, above_value: 1}\nalerts:\n  - {name: one, metric: m.one, alert_criteria: *c}\n  - {name: two, metric: m.two, alert_criteria: *c}\n` },
  { path: 'bad.yaml', text: 'alerts:\n  - name: broken\n    metric: [unclosed\n' },
  { path: 'invalid.yaml', text: 'alerts:\n  - name: mem\n    metric: m\n    alert_criteria: {type: above}\n    above_vale: 3\n' },
  { path: 'channels.yaml', text: '---\nchannels:\n  - {description: ops, type: email, destination: ops@example.com}\n---\n---\nschedules: []\n' },
];

describe('parsing definitions on a worker thread', () => {
  it('loads the same definitions and problems, at the same places, as a parse on this thread', async () => {
    const env = { RUNBOOK: 'https://runbooks.example.com/cpu' };
    const here = loadDefinitions(FILES, { env });
    const onWorker = await loadDefinitionsInSlices(FILES, { env, parseOnWorker: { minBytes: 0 } });
    expect(observable(onWorker)).toEqual(observable(here));
    // The file that does not parse is reported with its position, by either way.
    expect(onWorker.problems.map(formatProblem).some((p) => p.startsWith('bad.yaml:'))).toBe(true);
    expect(onWorker.definitions.alerts.find((a) => a.key === 'cpu')!.sensitivePaths).toEqual(['info']);
  });

  it('gives each file its own documents, and undefined for a file js-yaml refuses', { timeout: 10_000 }, async () => {
    const parsing = parseOnWorker(FILES, 0)!;
    // Each in turn, as the load takes them (a file the worker has not started is this thread's: `undefined`).
    const values: unknown[] = [];
    // Time for the worker to start and claim every file (they are small).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (let index = 0; index < FILES.length; index += 1) {
      const taken = parsing.take(index);
      values.push((taken.ready ? taken.values : await parsing.wait(index)) ?? 'parse here');
    }
    // Only the file js-yaml refuses is left to this thread's ordinary path (which reports it with its position).
    expect(values.map((v, index) => (v === 'parse here' ? index : -1)).filter((index) => index >= 0)).toEqual([2]);
    expect(values[4]).toEqual([{ channels: [{ description: 'ops', type: 'email', destination: 'ops@example.com' }] }, null, { schedules: [] }]);
    // An alias comes back as one object shared by both places, as js-yaml made it (the alias-bomb check relies on it).
    const [anchors] = values[1] as [{ alerts: { alert_criteria: object }[] }];
    expect(anchors.alerts[0]!.alert_criteria).toBe(anchors.alerts[1]!.alert_criteria);
    expect(Object.is((values[0] as [{ alerts: { additional_criteria?: { b: { above_value: number } } }[] }])[0].alerts[1]!.additional_criteria!.b.above_value, -0)).toBe(true);
  });

  it('is not started for less YAML than its threshold', () => {
    expect(parseOnWorker(FILES)).toBeUndefined();
    expect(parseOnWorker([], 0)).toBeUndefined();
  });

  it('refuses an alias bomb parsed on the worker as it does here', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 8; i += 1) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const bomb: SourceFile[] = [{ path: 'bomb.yaml', text: `${levels.join('\n')}\n` }];
    const here = loadDefinitions(bomb);
    const onWorker = await loadDefinitionsInSlices(bomb, { parseOnWorker: { minBytes: 0 } });
    expect(onWorker.problems.map(formatProblem)).toEqual(here.problems.map(formatProblem));
    expect(here.problems[0]!.message).toContain('alias');
  });
});
