import { BlockList, isIP } from 'node:net'

// Which addresses an image may be fetched from. An image URI comes from a service answer,
// so whoever minted an NFT chooses it: it must not reach this machine or the person's network.

/**
 * Networks an image is never fetched from, as CIDR: this machine, private and link-local
 * networks (169.254.169.254 is the cloud metadata service), carrier-grade NAT, multicast,
 * reserved and unspecified addresses. IPv4-mapped IPv6 addresses are checked as IPv4.
 */
export const DEFAULT_BLOCKED_NETWORKS: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/96', // unspecified (::), loopback (::1) and the old IPv4-compatible form (::127.0.0.1)
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
]

/**
 * The address rules: `refuses` is true for an address inside a blocked network, or one
 * that is not an IP address at all.
 *
 * IPv4 and IPv6 networks are kept in two lists: Node's BlockList checks IPv4 addresses
 * against IPv6 rules through `::ffff:0:0/96`, so one list holding that range refused every
 * IPv4 address. Mapped addresses are unmapped and checked as IPv4 instead.
 *
 * @example
 * const rules = new BlockedNetworks()
 * rules.refuses('8.8.8.8') // false
 * rules.refuses('::ffff:127.0.0.1') // true
 */
export class BlockedNetworks {
  readonly #ipv4 = new BlockList()
  readonly #ipv6 = new BlockList()

  constructor(networks: readonly string[] = DEFAULT_BLOCKED_NETWORKS) {
    for (const network of networks) {
      const [address = '', prefixText = '', ...rest] = network.split('/')
      const family = isIP(address)
      const prefix = Number(prefixText)
      const maxPrefix = family === 4 ? 32 : 128
      if (
        family === 0 ||
        rest.length > 0 ||
        !/^\d+$/.test(prefixText) ||
        prefix > maxPrefix ||
        (family === 6 && unmappedIPv4(address) !== null)
      )
        throw new Error(
          `Blocked network "${network}" is not an IPv4 or IPv6 network in CIDR form (such as 10.0.0.0/8); IPv4 networks are written as IPv4`,
        )
      if (family === 4) this.#ipv4.addSubnet(address, prefix, 'ipv4')
      else this.#ipv6.addSubnet(address, prefix, 'ipv6')
    }
  }

  /** Whether an image may not be fetched from this address. */
  refuses(address: string): boolean {
    const bare = address.replace(/%.*$/, '') // an IPv6 zone (fe80::1%eth0) names no network
    const family = isIP(bare)
    if (family === 4) return this.#ipv4.check(bare, 'ipv4')
    if (family !== 6) return true
    const ipv4 = unmappedIPv4(bare)
    return ipv4 !== null ? this.#ipv4.check(ipv4, 'ipv4') : this.#ipv6.check(bare, 'ipv6')
  }
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), else null. */
export function unmappedIPv4(ipv6: string): string | null {
  // The URL parser writes every IPv6 form canonically: a mapped address always reads
  // `::ffff:hhhh:hhhh`, whether it was written dotted, in hex or with leading zeros.
  let canonical: string
  try {
    canonical = new URL(`http://[${ipv6}]/`).hostname
  } catch {
    return null
  }
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical)
  if (!mapped) return null
  const high = parseInt(mapped[1] ?? '0', 16)
  const low = parseInt(mapped[2] ?? '0', 16)
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}
