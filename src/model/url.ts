/**
 * The one http(s) URL check: channel destinations (slack, webhook, victorops), serve's --graphite-url and notifier
 * URLs, and the CLI's server URL all go through it.
 */
export function parseHttpUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 ? url : undefined;
}

/** True for an absolute http: or https: URL with a host. */
export function isHttpUrl(value: string): boolean {
  return parseHttpUrl(value) !== undefined;
}
