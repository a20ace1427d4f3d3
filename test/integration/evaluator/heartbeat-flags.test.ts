import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

describe('alertform serve --heartbeat-url', () => {
  it('refuses a URL that is not http(s), one without --graphite-url, and a loopback one without --allow-private-destinations, never printing it', async () => {
    const secret = 'c2354d53d2-secret';
    const ftp = await runCli(['serve', '--db', ':memory:', '--graphite-url', 'http://127.0.0.1:9', '--heartbeat-url', `ftp://hc-ping.com/${secret}`]);
    expect(ftp.code).toBe(1);
    expect(ftp.stderr).toContain('--heartbeat-url must be an http(s) URL');
    const alone = await runCli(['serve', '--db', ':memory:'], { env: { ALERTFORM_HEARTBEAT_URL: `https://hc-ping.com/${secret}` } });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('--heartbeat-url needs --graphite-url');
    const loopback = await runCli(['serve', '--db', ':memory:', '--graphite-url', 'http://127.0.0.1:9', '--heartbeat-url', `http://127.0.0.1:8000/${secret}`]);
    expect(loopback.code).toBe(1);
    expect(loopback.stderr).toContain('--heartbeat-url leads to a loopback address: allow it with --allow-private-destinations');
    for (const result of [ftp, alone, loopback]) expect(result.stdout + result.stderr).not.toContain(secret);
  }, 90_000);
});
