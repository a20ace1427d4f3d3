import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Why an address is not a public destination; the words `last_error` and 400s show. */
export type AddressClass =
  | 'loopback address'
  | 'private address'
  | 'link-local address'
  | 'metadata address'
  | 'unspecified address'
  | 'multicast address'
  | 'reserved address';

/** Cloud metadata services: refused even when private destinations are allowed, unless listed by CIDR. */
const METADATA = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'];

const RANGES: [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified address', '0.0.0.0', 8, 'ipv4'],
  ['private address', '10.0.0.0', 8, 'ipv4'],
  ['private address', '100.64.0.0', 10, 'ipv4'],
  ['loopback address', '127.0.0.0', 8, 'ipv4'],
  ['link-local address', '169.254.0.0', 16, 'ipv4'],
  ['private address', '172.16.0.0', 12, 'ipv4'],
  ['reserved address', '192.0.0.0', 24, 'ipv4'],
  ['reserved address', '192.0.2.0', 24, 'ipv4'],
  ['private address', '192.168.0.0', 16, 'ipv4'],
  ['reserved address', '198.18.0.0', 15, 'ipv4'],
  ['reserved address', '198.51.100.0', 24, 'ipv4'],
  ['reserved address', '203.0.113.0', 24, 'ipv4'],
  ['multicast address', '224.0.0.0', 4, 'ipv4'],
  ['reserved address', '240.0.0.0', 4, 'ipv4'],
  ['unspecified address', '::', 128, 'ipv6'],
  ['loopback address', '::1', 128, 'ipv6'],
  ['reserved address', '100::', 64, 'ipv6'],
  // NAT64 local-use prefix (RFC 8215): a translator of the operator's own network, whatever IPv4 it carries.
  ['reserved address', '64:ff9b:1::', 48, 'ipv6'],
  // Teredo: the client's IPv4 address is in there obfuscated, and the relay is anyone's.
  ['reserved address', '2001::', 32, 'ipv6'],
  ['reserved address', '2001:db8::', 32, 'ipv6'],
  ['private address', 'fc00::', 7, 'ipv6'],
  ['link-local address', 'fe80::', 10, 'ipv6'],
  ['private address', 'fec0::', 10, 'ipv6'],
  ['multicast address', 'ff00::', 8, 'ipv6'],
];

const LISTS = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  let list = LISTS.get(kind);
  if (!list) LISTS.set(kind, (list = new BlockList()));
  list.addSubnet(network, prefix, family);
}

/**
 * The class of an IP address that deliveries must not reach by default, or null for a public address. IPv4
 * inside IPv6 (mapped ::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the
 * IPv4 address it carries; the NAT64 local-use prefix 64:ff9b:1::/48 and Teredo 2001::/32 are refused whole.
 * `address` is a literal as the resolver or the URL parser gives it (the URL parser has already turned 127.1,
 * 2130706433, 0x7f000001 and 0177.0.0.1 into 127.0.0.1).
 */
export function classifyAddress(address: string): AddressClass | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIPv6(bare)) {
    const embedded = embeddedIpv4(bare);
    if (embedded) return classifyAddress(embedded);
  } else if (!isIPv4(bare)) {
    return 'reserved address';
  }
  const family = isIPv4(bare) ? 'ipv4' : 'ipv6';
  if (METADATA.some((metadata) => sameAddress(metadata, bare))) return 'metadata address';
  for (const [kind, list] of LISTS) if (list.check(bare, family)) return kind;
  return null;
}

/** Whether two literals are one address (IPv6 has many spellings). */
function sameAddress(a: string, b: string): boolean {
  if (isIPv4(a) && isIPv4(b)) return a === b;
  if (isIPv6(a) && isIPv6(b)) return ipv6Words(a).every((word, i) => word === ipv6Words(b)[i]);
  return false;
}

/** The IPv4 address an IPv6 address carries by a standard embedding, if any. */
export function embeddedIpv4(address: string): string | null {
  const w = ipv6Words(address);
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6]!, w[7]!); // ::ffff:a.b.c.d
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return v4(w[6]!, w[7]!); // ::ffff:0:a.b.c.d (SIIT, IPv4-translated)
  if (zeros(0, 6) && (w[6] !== 0 || w[7]! > 1)) return v4(w[6]!, w[7]!); // ::a.b.c.d (deprecated IPv4-compatible)
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4(w[6]!, w[7]!); // 64:ff9b::a.b.c.d
  if (w[0] === 0x2002) return v4(w[1]!, w[2]!); // 2002:aabb:ccdd::/48
  return null;
}

/** The eight 16-bit words of an IPv6 literal (with or without `::` and a dotted IPv4 tail). */
export function ipv6Words(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}
