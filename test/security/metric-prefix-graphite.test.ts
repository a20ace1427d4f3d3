import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMetricPrefixes } from '../../src/server/validation/metric-prefixes.js';
import { graphiteAvailability, startGraphite, type Graphite, type GraphiteSeries } from '../helpers/graphite.js';

// Issue 19, item 1, against a real graphite-web: the targets a team1.-confined account could create on main read
// another tenant's points there, and are refused now. The "/" case was found while porting graphite-web's grammar:
// its file finder joins each path segment to a directory, and a segment starting with "/" is an absolute path.

const values = (series: GraphiteSeries[]) => series.flatMap((one) => one.datapoints.map(([value]) => value)).filter((value) => value !== null);

const availability = graphiteAvailability();
let graphite: Graphite;

beforeAll(async () => {
  if (availability.skip) return;
  graphite = await startGraphite();
  await graphite.writePoints([
    { path: 'other.secret.cpu', value: 42 },
    { path: 'team1.x', value: 1 },
  ]);
  // Readable, not only there: a whisper file exists before carbon has finished writing it.
  await graphite.waitForSeries('other.secret.cpu', (series) => values(series).includes(42));
  await graphite.waitForSeries('team1.x', (series) => values(series).includes(1));
}, 120_000);
afterAll(async () => {
  await graphite?.stop();
});


describe.skipIf(availability.skip)('targets that read another tenant through graphite-web', () => {
  it.each([
    ['a "[" that graphite-web ends at ","', () => 'sumSeries(team1.x[,other.secret.cpu,y])'],
    ['a segment starting with "/"', () => `team1.${graphite.whisperDir}/other/secret/cpu`],
  ])('%s reads the other tenant there, and is refused for an account confined to team1.', async (_, target) => {
    expect(values(await graphite.render(target()))).toContain(42);
    expect(checkMetricPrefixes(target(), ['team1.'])).not.toBeNull();
  });
});
