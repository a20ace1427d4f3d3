import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMetricPrefixes } from '../../src/server/validation/metric-prefixes.js';
import { graphiteAvailability, startGraphite, type Graphite, type GraphiteSeries } from '../helpers/graphite.js';
import { until } from '../helpers/until.js';

// Issue 19, item 1, against a real graphite-web: the targets a team1.-confined account could create on main read
// another tenant's points there, and are refused now. The "/" case was found while porting graphite-web's grammar:
// its file finder joins each path segment to a directory, and a segment starting with "/" is an absolute path.

const availability = graphiteAvailability();
let graphite: Graphite;

beforeAll(async () => {
  if (availability.skip) return;
  graphite = await startGraphite();
  await graphite.writePoints([
    { path: 'other.secret.cpu', value: 42 },
    { path: 'team1.x', value: 1 },
  ]);
  // The finder reads whisper files from disk: wait until carbon has written both.
  const files = async (dir: string) => readdir(join(graphite.whisperDir, dir)).catch(() => [] as string[]);
  await until(async () => (await files('other/secret')).length + (await files('team1')).length, (count) => count >= 2, 60_000);
}, 120_000);
afterAll(async () => {
  await graphite?.stop();
});

const values = (series: GraphiteSeries[]) => series.flatMap((one) => one.datapoints.map(([value]) => value)).filter((value) => value !== null);

describe.skipIf(availability.skip)('targets that read another tenant through graphite-web', () => {
  it.each([
    ['a "[" that graphite-web ends at ","', () => 'sumSeries(team1.x[,other.secret.cpu,y])'],
    ['a segment starting with "/"', () => `team1.${graphite.whisperDir}/other/secret/cpu`],
  ])('%s reads the other tenant there, and is refused for an account confined to team1.', async (_, target) => {
    expect(values(await graphite.render(target()))).toContain(42);
    expect(checkMetricPrefixes(target(), ['team1.'])).not.toBeNull();
  });
});
