import type { Command } from 'commander';

/** `alertform test [DIR]`: offline unit tests of alert rules, from `*.test.yaml` files beside the definitions. */
export function registerTestCommand(program: Command): void {
  program
    .command('test')
    .description('run the rule tests (*.test.yaml) of a definitions directory offline: input series, expected status and notifications')
    .argument('[dir]', 'definitions directory', '.')
    .option('--graphite-url <url>', 'run the tests of queries with functions alertform does not evaluate on this graphite-web (env ALERTFORM_GRAPHITE_URL, `graphite:` in alertform.yaml)')
    .option('--require-all', 'fail (exit 1) when any test did not run, e.g. a function query without a Graphite')
    .option('--carbon <host:port>', 'carbon plaintext receiver the input series are written to (default: the Graphite host, port 2003)')
    .addHelpText(
      'after',
      `
A test file (any *.test.yaml beside the definitions; schema: schemas/rule-test.schema.json):

  tests:
    - name: pages after 5 minutes of errors
      alert: shop-api-latency-p99          # an alert defined in DIR
      interval: 1m                          # between input points (default 1m)
      input_series:
        - series: shop.api.latency.p99
          values: "500x10 900x15 500x5"     # promtool notation: 10+5x20, 1x3, _ (missing), _x3
      expect:
        - {at: 5m, status: healthy}
        - {at: 20m, status: alerting}
      notifications: {shop-team-slack: 1}  # deliveries per channel over the whole test

Plain paths and wildcards are evaluated locally with the server's evaluator, and so are the functions most
alerts use, as graphite-web 1.1.8 answers them: sumSeries (sum), averageSeries (avg), minSeries, maxSeries,
diffSeries, countSeries, divideSeries, asPercent (pct), scale, offset, absolute, keepLastValue, transformNull,
perSecond, nonNegativeDerivative, summarize, movingAverage (movingSum, movingMin, movingMax), alias,
aliasByNode, aliasByMetric. A test of a query with another function (holtWintersForecast(...)) needs a
Graphite: with --graphite-url its input series are written through carbon under a prefix of their own
(alertform_test_<random>.) and the rewritten query is read back; without one the test is reported as NOT RUN
with the reason, never as passed.

Exit status: 0 when every test that ran passed, 1 on a failure or a bad test file. Tests that did NOT RUN do not
fail the run unless --require-all is given (do give it in CI, with a Graphite).

Examples:
  $ alertform test examples/
  $ alertform test . --json              # {"passed": 2, "failed": 0, "notRun": 1, "results": [...]}
  $ alertform test . --require-all       # exit 1 when a test could not run
  $ alertform test . --graphite-url http://127.0.0.1:8000 --carbon 127.0.0.1:2003   # every function query too`,
    )
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const { runTests } = await import('../actions/test.js');
      await runTests(dir, command);
    });
}
