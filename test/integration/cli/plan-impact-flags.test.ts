import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

describe('plan --impact flags', { timeout: 60_000 }, () => {
  // The server URL points nowhere: the flags are checked before anything is asked of it.
  const env = { ALERTFORM_URL: 'http://127.0.0.1:9', ALERTFORM_API_KEY: 'k', ALERTFORM_GRAPHITE_URL: undefined };

  it('refuses --impact without a Graphite, saying where one can come from', async () => {
    const result = await runCli(['plan', 'examples', '--impact'], { env });
    expect(result.stderr).toContain('--impact needs a Graphite: pass --graphite-url URL, set ALERTFORM_GRAPHITE_URL, or write `graphite:` in alertform.yaml');
    expect(result.code).toBe(1);
  });

  it('refuses a window it cannot read', async () => {
    const result = await runCli(['plan', 'examples', '--graphite-url', 'http://127.0.0.1:9', '--impact-window', '7x'], { env });
    expect(result.stderr).toContain('--impact-window: "7x" is not a duration: write a number and a unit, e.g. 30s, 15m, 12h, 7d');
    expect(result.code).toBe(1);
  });

  it('takes a bare number of seconds as --impact-window, as every other duration flag does', async () => {
    const result = await runCli(['plan', 'examples', '--graphite-url', 'http://127.0.0.1:9', '--impact-window', '90'], { env });
    // Past the flag checks: the plan goes on to read the server, which is not there.
    expect(result.stderr).not.toContain('--impact-window');
    expect(result.stderr).toMatch(/127\.0\.0\.1:9/);
    expect(result.code).toBe(1);
  });
});
