export type KeyCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks an API key against a /v2 API: `GET /v2/alerts/?max=1` with the key as the Basic user must answer 200.
 * Never throws; the reason is safe to print (no key in it; user-info of the URL is dropped).
 */
export async function checkApiKey(serverUrl: string, key: string, timeoutMs = 10_000): Promise<KeyCheck> {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    return { ok: false, reason: `--server must be a URL such as https://api.example.com, got '${stripUserInfo(serverUrl)}'` };
  }
  url.username = '';
  url.password = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v2/alerts/`;
  url.search = '?max=1';
  const shown = displayServer(serverUrl);
  try {
    const response = await fetch(url, {
      headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.status === 200) return { ok: true };
    if (response.status === 401 || response.status === 403) {
      return { ok: false, reason: `the API key was refused by ${shown} (HTTP ${response.status}): check it and try again` };
    }
    return { ok: false, reason: `${shown} answered HTTP ${response.status} to GET /v2/alerts/?max=1, so the key could not be checked` };
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return { ok: false, reason: `could not reach ${shown} to check the key (${cause}); on an offline host use --no-verify` };
  }
}

/** A server URL as it may be printed: without user-info. */
export function displayServer(serverUrl: string): string {
  try {
    const url = new URL(serverUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return stripUserInfo(serverUrl);
  }
}

function stripUserInfo(text: string): string {
  return text.replace(/\/\/[^@/]*@/, '//');
}
