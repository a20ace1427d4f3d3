/** Where a listener binds: `HOST:PORT`, `[IPv6]:PORT`, or a bare `PORT` / `:PORT` (then loopback, 127.0.0.1). */
export interface ListenAddress {
  host: string;
  port: number;
}

/** The loopback address a listener binds when its host is not given. */
export const DEFAULT_LISTEN_HOST = '127.0.0.1';

/** Parses a listen address; throws an Error saying what is wrong. */
export function parseListenAddress(text: string): ListenAddress {
  const trimmed = text.trim();
  let host = DEFAULT_LISTEN_HOST;
  let portText = trimmed;
  const v6 = /^\[([0-9A-Fa-f:.]+)\]:(\d+)$/.exec(trimmed);
  if (v6) {
    host = v6[1]!;
    portText = v6[2]!;
  } else if (trimmed.includes(':')) {
    const colon = trimmed.lastIndexOf(':');
    if (trimmed.indexOf(':') !== colon) throw new Error(`"${text}": write an IPv6 address in brackets, [::1]:2003`);
    if (colon > 0) host = trimmed.slice(0, colon);
    portText = trimmed.slice(colon + 1);
  }
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65535) throw new Error(`"${text}" is not HOST:PORT (a port from 0 to 65535, 0 picks a free one)`);
  if (!/^[A-Za-z0-9.:-]+$/.test(host)) throw new Error(`"${text}": "${host}" is not a host name or address`);
  return { host, port };
}
