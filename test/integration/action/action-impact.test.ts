import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAction } from '../../../src/action/run.js';
import { createRunnerFiles, pullRequestEvent, runInProcess } from '../../helpers/action-run.js';
import { createGitRepo, type TempGitRepo } from '../../helpers/git-repo.js';
import { graphiteAvailability, startGraphite, type Graphite, type GraphitePoint } from '../../helpers/graphite.js';
import { mockGitHub } from '../../helpers/github-mock.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { nockForThisFile } from '../../helpers/nock-for-this-file.js';

nockForThisFile();

// The Action's plan with the graphite-url input, end to end: a real Graphite with a day of history, the real
// reconciler and server, GitHub as nock. The comment must carry the backtest and its chart, never the credentials.

const availability = graphiteAvailability();
const GRAPHITE_PASSWORD = 'gr4phite-s3cret-pw';

describe.skipIf(availability.skip)('the Action with graphite-url', { timeout: 180_000 }, () => {
  let graphite: Graphite;
  let server: TestServer;
  let repo: TempGitRepo;
  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1/);
    [graphite, server, repo] = await Promise.all([startGraphite({ retentions: '60s:2d' }), startTestServer(), createGitRepo()]);
    // Latency 200 ms, above 500 for 20 minutes three hours ago and for 15 minutes one hour ago.
    const last = Math.floor(Date.now() / 60_000) * 60;
    const points: GraphitePoint[] = [];
    for (let time = last - 26 * 3600; time <= last; time += 60) {
      const high = (time >= last - 3 * 3600 && time < last - 3 * 3600 + 1200) || (time >= last - 3600 && time < last - 3600 + 900);
      points.push({ path: 'prod.web.p99', value: high ? 700 : 200, time });
    }
    await graphite.writePoints(points);
    await graphite.waitForSeries('prod.web.p99', ([series]) => (series?.datapoints.filter(([v]) => v !== null).length ?? 0) >= points.length, { minutes: 26 * 60 + 5 });
  });
  afterAll(async () => {
    await Promise.all([graphite?.stop(), server?.close()]);
    repo?.cleanup();
  });

  it('puts the backtest table and a mermaid chart in the PR comment, credentials masked', async () => {
    const base = await repo.commit({ 'README.md': 'x\n' }, 'base');
    const head = await repo.commit(
      {
        'alerts.yaml': `channels:
  - {description: ops-email, type: email, destination: ops@example.com}
alerts:
  - name: web-latency
    metric: prod.web.p99
    alert_criteria: {type: above, above_value: 500, time_period: 10}
    notification_channels: [ops-email]
    notification_type: state_change
`,
      },
      'alert',
    );
    const github = mockGitHub();
    const files = createRunnerFiles();
    const graphiteUrl = graphite.url.replace('http://', `http://ci:${GRAPHITE_PASSWORD}@`);
    try {
      const vars = files.env({
        eventName: 'pull_request',
        event: pullRequestEvent({ number: 11, baseSha: base, headSha: head }),
        inputs: { command: 'plan', path: '.', 'server-url': server.url, 'api-key': server.key, 'github-token': 'ghs_tok', 'graphite-url': graphiteUrl, 'impact-window': '1d' },
      });
      const result = await runInProcess(vars, files, () => runAction({ cwd: repo.dir }));
      expect(result.exitCode, result.log).toBe(0);
      const body = github.commentsOf(11)[0]!.body;
      // Episodes of 20 and 15 minutes; "10 minutes above" holds for their last 11 and 6 minutes.
      expect(body).toContain('#### Backtest: 1 alert would have fired 2 times in 1 day');
      expect(body).toContain('| `web-latency` (create) | 2 | 17 | 11 | ops-email 4 |');
      expect(body).toContain('```mermaid\nxychart-beta\n  title "web-latency"');
      expect(result.summary).toContain('#### Backtest: 1 alert would have fired 2 times in 1 day');
      // The log's ::add-mask:: line is how the runner learns to hide it.
      for (const text of [body, result.summary, result.log.replace(/^::add-mask::.*$/gm, ''), JSON.stringify(result.outputs)]) expect(text).not.toContain(GRAPHITE_PASSWORD);
    } finally {
      files.cleanup();
    }
  });
});
