import { BlockList, isIPv4, isIPv6 } from 'node:net'

// Which addresses a fetch on a stranger's behalf (an NFT's image URI) may connect to: the
// public internet only, never this machine or a network behind it. IPv4 and IPv6 are kept
// in two lists: a BlockList holding ::ffff:0:0/96 also answers for every IPv4 address.

/** One range refused, and why, for the refusal's message. */
export interface AddressRange {
  network: string
  prefix: number
  family: 'ipv4' | 'ipv6'
  /** What the range is, e.g. 'this machine'. */
  what: string
}

/** Every range refused by default. Documentation ranges (198.51.100.0/24…) are public here. */
export const NON_PUBLIC_RANGES: readonly AddressRange[] = [
  { network: '0.0.0.0', prefix: 8, family: 'ipv4', what: 'this network' },
  { network: '10.0.0.0', prefix: 8, family: 'ipv4', what: 'a private network' },
  { network: '100.64.0.0', prefix: 10, family: 'ipv4', what: 'a carrier-grade NAT network' },
  { network: '127.0.0.0', prefix: 8, family: 'ipv4', what: 'this machine' },
  { network: '169.254.0.0', prefix: 16, family: 'ipv4', what: 'a link-local network' },
  { network: '172.16.0.0', prefix: 12, family: 'ipv4', what: 'a private network' },
  { network: '192.0.0.0', prefix: 24, family: 'ipv4', what: 'a protocol-assignment network' },
  { network: '192.168.0.0', prefix: 16, family: 'ipv4', what: 'a private network' },
  { network: '198.18.0.0', prefix: 15, family: 'ipv4', what: 'a benchmarking network' },
  { network: '224.0.0.0', prefix: 4, family: 'ipv4', what: 'a multicast group' },
  { network: '240.0.0.0', prefix: 4, family: 'ipv4', what: 'a reserved network' },
  { network: '::', prefix: 128, family: 'ipv6', what: 'this network' },
  { network: '::1', prefix: 128, family: 'ipv6', what: 'this machine' },
  { network: 'fc00::', prefix: 7, family: 'ipv6', what: 'a private network' },
  { network: 'fe80::', prefix: 10, family: 'ipv6', what: 'a link-local network' },
  { network: 'ff00::', prefix: 8, family: 'ipv6', what: 'a multicast group' },
]

/** IPv4 inside IPv6: mapped (::ffff:a.b.c.d) and NAT64's well-known prefix (64:ff9b::/96). */
const EMBEDDED_IPV4 =
  /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i

/**
 * The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address, else the address as it is:
 * such an address reaches the IPv4 host, so it is checked as that host.
 *
 * @example
 * unmapped('::ffff:127.0.0.1') // '127.0.0.1'
 * unmapped('::ffff:7f00:1')    // '127.0.0.1'
 */
export function unmapped(address: string): string {
  const match = EMBEDDED_IPV4.exec(address)
  if (match === null) return address
  if (match[1] !== undefined) return match[1]
  const high = parseInt(match[2] as string, 16)
  const low = parseInt(match[3] as string, 16)
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** Checks addresses against a set of refused ranges. */
export class AddressRules {
  /** The ranges refused. */
  readonly ranges: readonly AddressRange[]
  readonly #ipv4 = new BlockList()
  readonly #ipv6 = new BlockList()

  constructor(ranges: readonly AddressRange[] = NON_PUBLIC_RANGES) {
    this.ranges = ranges
    for (const r of ranges)
      (r.family === 'ipv4' ? this.#ipv4 : this.#ipv6).addSubnet(r.network, r.prefix, r.family)
  }

  /**
   * What a refused address is ('this machine', 'a private network', …), or null when it
   * may be connected to. Anything that is not an IP address is refused.
   *
   * @example
   * new AddressRules().refusal('8.8.8.8')          // null
   * new AddressRules().refusal('::ffff:10.0.0.1')  // 'a private network'
   */
  refusal(address: string): string | null {
    const checked = unmapped(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''))
    if (isIPv4(checked)) {
      if (!this.#ipv4.check(checked, 'ipv4')) return null
      return this.#whatIs(checked, 'ipv4')
    }
    if (isIPv6(checked)) {
      if (!this.#ipv6.check(checked, 'ipv6')) return null
      return this.#whatIs(checked, 'ipv6')
    }
    return 'not an IP address'
  }

  #whatIs(address: string, family: 'ipv4' | 'ipv6'): string {
    for (const r of this.ranges) {
      if (r.family !== family) continue
      const one = new BlockList()
      one.addSubnet(r.network, r.prefix, family)
      if (one.check(address, family)) return r.what
    }
    return 'a refused network'
  }
}
