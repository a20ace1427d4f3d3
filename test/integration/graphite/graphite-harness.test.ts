import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';

const availability = graphiteAvailability();

describe.skipIf(availability.skip)('the real Graphite the tests run', () => {
  let graphite: Graphite;
  beforeAll(async () => {
    graphite = await startGraphite();
  });
  afterAll(async () => {
    await graphite?.stop();
  });

  it('serves points written through the plaintext protocol back through the render API', async () => {
    const now = Math.floor(Date.now() / 1000);
    await graphite.writePoints([
      { path: 'harness.web1.load', value: 3.5, time: now - 20 },
      { path: 'harness.web2.load', value: 7, time: now - 20 },
    ]);
    const series = await graphite.waitForSeries('harness.*.load', (found) => found.length === 2, { minutes: 5, timeoutMs: 10_000 });
    expect(series.map((s) => s.target).sort()).toEqual(['harness.web1.load', 'harness.web2.load']);
    const values = series.flatMap((s) => s.datapoints.map(([value]) => value)).filter((v) => v !== null);
    expect(values.sort()).toEqual([3.5, 7]);
    expect(await graphite.findMetrics('harness.*.load')).toEqual(['harness.web1.load', 'harness.web2.load']);
  });
});
