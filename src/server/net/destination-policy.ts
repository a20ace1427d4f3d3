import { BlockList, isIP } from 'node:net';
import { classifyAddress } from './address-class.js';

/**
 * Where tenant-given destinations (webhook, Slack and VictorOps URLs) may lead. By default only public addresses;
 * `alertform serve --allow-private-destinations` allows every private one (single-tenant installs) or, with a
 * list, only the listed CIDRs and host names.
 */
export interface DestinationPolicy {
  /** True: every non-public address but metadata services. False: only what `allowed` lists. */
  allowPrivate: boolean;
  /** CIDRs (or single addresses) whose addresses are allowed, metadata included. */
  allowedNetworks: BlockList;
  /** Host names (lower case) whose resolved addresses are allowed. */
  allowedHosts: Set<string>;
}

/** The default: public addresses only. */
export const PUBLIC_ONLY: DestinationPolicy = Object.freeze({
  allowPrivate: false,
  allowedNetworks: new BlockList(),
  allowedHosts: new Set<string>(),
});

/**
 * The policy of `--allow-private-destinations [list]`: `true` (flag without a list) allows all private
 * addresses; a comma-separated list of CIDRs, addresses and host names allows only those. Throws on a bad entry.
 */
export function parseDestinationPolicy(option: boolean | string | string[] | undefined): DestinationPolicy {
  if (option === undefined || option === false) return PUBLIC_ONLY;
  if (option === true) return { ...PUBLIC_ONLY, allowPrivate: true };
  const entries = (Array.isArray(option) ? option : [option]).flatMap((value) => value.split(',')).map((e) => e.trim()).filter(Boolean);
  const allowedNetworks = new BlockList();
  const allowedHosts = new Set<string>();
  for (const entry of entries) {
    const [network, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(network);
    if (family === 0) {
      if (bits !== undefined || !/^[a-z0-9.-]+$/i.test(entry)) throw new Error(`"${entry}" is neither a CIDR nor a host name`);
      allowedHosts.add(entry.toLowerCase());
      continue;
    }
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`"${entry}" has a bad prefix length`);
    allowedNetworks.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return { allowPrivate: false, allowedNetworks, allowedHosts };
}

/**
 * Why a connection to `address` (resolved from `host`) is refused, e.g. "private address", or null when allowed.
 */
export function refuseAddress(policy: DestinationPolicy, host: string, address: string): string | null {
  const kind = classifyAddress(address);
  if (kind === null) return null;
  const bare = address.replace(/^\[|\]$/g, '');
  if (policy.allowedNetworks.check(bare, isIP(bare) === 6 ? 'ipv6' : 'ipv4')) return null;
  if (policy.allowedHosts.has(host.toLowerCase().replace(/\.$/, ''))) return null;
  if (policy.allowPrivate && kind !== 'metadata address') return null;
  return kind;
}

/**
 * For create time: why a destination URL whose host is an IP literal (in any spelling the URL parser accepts) is
 * refused, or null. Host names are judged at connect time only: what they resolve to may change.
 */
export function refuseLiteralDestination(policy: DestinationPolicy, destination: string): string | null {
  let host: string;
  try {
    host = new URL(destination.trim()).hostname;
  } catch {
    return null;
  }
  // `localhost.` (the fully qualified spelling) is localhost too: the trailing dots go before the comparison.
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (isIP(bare) === 0 && bare !== 'localhost' && !bare.endsWith('.localhost')) return null;
  return refuseAddress(policy, bare, isIP(bare) === 0 ? '127.0.0.1' : bare);
}
