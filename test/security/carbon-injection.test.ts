import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carbonLine, checkSeriesPath } from '../../src/rule-tests/series-path.js';
import { startFakeRender } from '../helpers/fake-render-server.js';
import { runCli } from '../helpers/run-cli.js';

// Issue 19, item 5. Before: `alertform test --graphite-url` wrote each input series to carbon as
// `alertform_test_<random>.<name> value time`, and a name with a newline wrote its own lines, anywhere (outside
// the prefix). After: names are checked as Graphite paths where the file is read (a problem at file:line, the case
// not run) and again where the line is built; nothing else reaches carbon.

let dir: string;
let carbon: Server;
let carbonPort: number;
const received: string[] = [];
let render: Awaited<ReturnType<typeof startFakeRender>>;

beforeAll(async () => {
  carbon = createServer((socket) => socket.on('data', (chunk: Buffer) => received.push(chunk.toString('utf8'))));
  await new Promise<void>((resolve) => carbon.listen(0, '127.0.0.1', resolve));
  carbonPort = (carbon.address() as AddressInfo).port;
  render = await startFakeRender(() => ({ series: [] }));
  dir = mkdtempSync(join(tmpdir(), 'af-carbon-inject-'));
  writeFileSync(
    join(dir, 'alerts.yaml'),
    // A function alertform does not evaluate locally, so the test's series would go through carbon.
    'alerts:\n  - {name: errors, metric: "removeBelowValue(sumSeries(shop.*.errors), -1)", alert_criteria: {type: above, above_value: 25}, notification_type: state_change}\n',
  );
});
afterAll(async () => {
  await render.close();
  await new Promise<void>((resolve) => carbon.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('alertform test writes only Graphite paths to carbon', { timeout: 60_000 }, () => {
  it.each([
    ['a newline and a line of its own', JSON.stringify('shop.web1.errors 1 1700000000\nproduction.revenue 0')],
    ['a space', '"shop.web1.errors 5"'],
    ['an escape character', JSON.stringify('shop.\u001b[2Jweb1.errors')],
  ])('refuses a series name with %s at file:line and sends nothing', async (_, name) => {
    received.length = 0;
    writeFileSync(
      join(dir, 'alerts.test.yaml'),
      `tests:\n  - name: injected\n    alert: errors\n    input_series:\n      - {series: ${name}, values: "30x5"}\n    expect:\n      - {at: 4m, status: alerting}\n`,
    );
    const result = await runCli(['test', dir, '--graphite-url', render.url, '--carbon', `127.0.0.1:${carbonPort}`]);
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/alerts\.test\.yaml:5:\d+\s+tests\.0\.input_series\.0\.series\s+is not a Graphite path/);
    // Nothing was written, and Graphite was never asked.
    expect(received.join('')).toBe('');
    expect(render.requests).toHaveLength(0);
  });

  it('checks the name again where the carbon line is built', () => {
    expect(() => carbonLine('alertform_test_1.shop\nevil.metric', 1, 1_700_000_000)).toThrow(/is not a Graphite path/);
    expect(() => carbonLine('alertform_test_1.shop.web1', Number.NaN, 1_700_000_000)).toThrow(/not a number/);
    expect(carbonLine('alertform_test_1.shop.web-1.errors', 2.5, 1_700_000_000)).toBe('alertform_test_1.shop.web-1.errors 2.5 1700000000');
    expect(checkSeriesPath('shop..errors')).toMatch(/empty segment/);
    expect(checkSeriesPath('shop.*.errors')).toMatch(/no spaces, newlines, quotes or wildcards/);
  });
});
