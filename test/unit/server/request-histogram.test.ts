import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestHistogram } from '../../../src/server/request-histogram.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const NAME = 'alertform_http_request_duration_seconds';
const HELP = 'HTTP requests by method, route (the path pattern) and status, with their latency';

/** The same histogram twice: prom-client's and ours, each in a registry of its own. */
function twins() {
  const theirs = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({ name: NAME, help: HELP, labelNames: ['method', 'route', 'status'], buckets: BUCKETS, registers: [theirs] });
  const requests = new RequestHistogram(NAME, HELP, BUCKETS, [ours]);
  return {
    theirs,
    ours,
    observe(method: string, route: string, status: number, seconds: number) {
      histogram.observe({ method, route, status: String(status) }, seconds);
      requests.observe(method, route, status, seconds);
    },
    reset() {
      theirs.resetMetrics();
      ours.resetMetrics();
    },
  };
}

describe('the request histogram', () => {
  it('exposes byte for byte what prom-client\'s Histogram does for the same observations, in text and JSON', async () => {
    const both = twins();
    expect(await both.ours.metrics()).toBe(await both.theirs.metrics());
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const routes = ['/v2/alerts/:id', '/v2/alerts', 'unmatched', '/v2/notifications/:id', 'a "quoted"\\route\n'];
    for (let i = 0; i < 5_000; i++) {
      const seconds = [0, 0.001, 5, 7, random() * 0.02, random() * 10][i % 6]!;
      both.observe(['GET', 'POST', 'PUT'][i % 3]!, routes[Math.floor(random() * routes.length)]!, [200, 404, 401, 500][i % 4]!, seconds);
    }
    expect(await both.ours.metrics()).toBe(await both.theirs.metrics());
    expect(await both.ours.getMetricsAsJSON()).toEqual(await both.theirs.getMetricsAsJSON());
    both.reset();
    both.observe('GET', '/v2/alerts', 200, 0.003);
    expect(await both.ours.metrics()).toBe(await both.theirs.metrics());
  });

  it('refuses a value that is not a number, as prom-client does', () => {
    const requests = new RequestHistogram(NAME, HELP, BUCKETS, [new Registry()]);
    expect(() => requests.observe('GET', '/v2/alerts', 200, Number.NaN)).toThrow(TypeError);
  });
});
