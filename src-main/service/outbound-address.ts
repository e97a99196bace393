import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIPv4, isIPv6, type LookupFunction } from 'node:net'

// Where the app may connect on someone else's say-so (an alert channel's URL, an NFT's
// image URI): the public internet only, unless a person who may decide says otherwise.
// One policy for every such connection, checked when the URL is given and again at each
// connection, on every address a name answers (DNS can answer differently each time).
//
// IPv4 and IPv6 are kept in two lists: a BlockList holding ::ffff:0:0/96 also answers for
// every IPv4 address. An IPv6 address that carries an IPv4 one (mapped, IPv4-compatible,
// NAT64, 6to4) reaches that IPv4 host, so it is checked as that host.

/** Why a range is refused: the machine itself, or everything else that is not public. */
export type RangeKind = 'loopback' | 'non-public'

/** One range refused, and what it is, for the refusal's message. */
export interface AddressRange {
  network: string
  prefix: number
  family: 'ipv4' | 'ipv6'
  /** What the range is, e.g. 'this machine'. */
  what: string
  kind: RangeKind
}

const v4 = (network: string, prefix: number, what: string, kind: RangeKind = 'non-public') =>
  ({ network, prefix, family: 'ipv4', what, kind }) as const
const v6 = (network: string, prefix: number, what: string, kind: RangeKind = 'non-public') =>
  ({ network, prefix, family: 'ipv6', what, kind }) as const

/**
 * Every range refused by default (IANA's special-purpose registries). Documentation
 * ranges (192.0.2.0/24, 198.51.100.0/24, 2001:db8::/32) are public here: tests use them
 * to stand for hosts on the internet.
 */
export const NON_PUBLIC_RANGES: readonly AddressRange[] = [
  v4('0.0.0.0', 8, 'this network (unspecified)'),
  v4('10.0.0.0', 8, 'a private network'),
  v4('100.64.0.0', 10, 'a carrier-grade NAT network'),
  v4('127.0.0.0', 8, 'this machine', 'loopback'),
  v4('169.254.0.0', 16, 'a link-local network'),
  v4('172.16.0.0', 12, 'a private network'),
  v4('192.0.0.0', 24, 'a protocol-assignment network'),
  v4('192.88.99.0', 24, 'a 6to4 relay network'),
  v4('192.168.0.0', 16, 'a private network'),
  v4('198.18.0.0', 15, 'a benchmarking network'),
  v4('224.0.0.0', 4, 'a multicast group'),
  v4('240.0.0.0', 4, 'a reserved network'),
  v6('::', 128, 'this network (unspecified)'),
  v6('::1', 128, 'this machine', 'loopback'),
  v6('64:ff9b:1::', 48, 'a local NAT64 network'),
  v6('100::', 64, 'a discard-only network'),
  v6('2001::', 32, 'a Teredo tunnel'),
  v6('fc00::', 7, 'a private network'),
  v6('fe80::', 10, 'a link-local network'),
  v6('fec0::', 10, 'a site-local network'),
  v6('ff00::', 8, 'a multicast group'),
]

/** What may be reached beyond the public internet. */
export interface AddressAllowance {
  /** This machine (127.0.0.0/8, ::1). */
  loopback?: boolean
  /** Every other range that is not public. */
  nonPublic?: boolean
}

/** A refused address: the range it is in, and the address as checked. */
export interface AddressRefusal {
  /** The address as given (an answer of the resolver, or a URL's host). */
  address: string
  /** The IPv4 address it reaches when it carries one (`::ffff:10.0.0.1` → `10.0.0.1`). */
  checkedAs: string
  /** The range, or null when the text is not an IP address at all. */
  range: AddressRange | null
}

/** The range in words with its rule, e.g. `a private network (10.0.0.0/8)`. */
export function describeRange(refusal: AddressRefusal): string {
  const { range } = refusal
  if (range === null) return 'not an IP address'
  return `${range.what} (${range.network}/${range.prefix})`
}

/** An address refused by the policy, its message naming the host, the address and the rule. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError'
  readonly refusal: AddressRefusal
  constructor(host: string, refusal: AddressRefusal) {
    const resolved =
      refusal.address === host.replace(/^\[|\]$/g, '')
        ? ''
        : ` resolves to ${refusal.address}, which`
    const carried =
      refusal.checkedAs === refusal.address
        ? ''
        : ` (it reaches the IPv4 host ${refusal.checkedAs})`
    super(`${host}${resolved} is on ${describeRange(refusal)}${carried}`)
    this.refusal = refusal
  }
}

/** The eight 16-bit groups of an IPv6 address (no brackets, no zone), or null. */
function ipv6Groups(text: string): number[] | null {
  if (!isIPv6(text)) return null
  let body = text
  const tail: number[] = []
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(body)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    tail.push((a << 8) | b, (c << 8) | d)
    body = body.slice(0, dotted.index)
    // `::1.2.3.4` keeps its `::`; `…:ffff:1.2.3.4` loses the colon before the IPv4 part.
    if (!body.endsWith('::')) body = body.slice(0, -1)
  }
  const halves = body.split('::')
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((g) => parseInt(g, 16))
  const before = parse(halves[0] ?? '')
  if (halves.length === 1) return [...before, ...tail]
  const after = [...parse(halves[1] ?? ''), ...tail]
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after]
}

const ipv4Of = (high: number, low: number): string =>
  [high >> 8, high & 255, low >> 8, low & 255].join('.')

/**
 * The IPv4 address an IPv6 address carries, else the address as it is: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, written ::a00:1 too), NAT64's well-known
 * prefix (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48) reach the IPv4 host.
 *
 * @example
 * carriedIpv4('::ffff:7f00:1')   // '127.0.0.1'
 * carriedIpv4('64:ff9b::a00:1')  // '10.0.0.1'
 * carriedIpv4('2606:4700::1111') // '2606:4700::1111'
 */
export function carriedIpv4(address: string): string {
  const groups = ipv6Groups(address)
  if (groups === null) return address
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const isZeroTo = (n: number): boolean => groups.slice(0, n).every((g) => g === 0)
  if (isZeroTo(5) && g5 === 0xffff) return ipv4Of(g6, g7)
  // :: and ::1 are IPv6's own (unspecified, loopback), not IPv4-compatible addresses.
  if (isZeroTo(6) && (g6 !== 0 || g7 > 1)) return ipv4Of(g6, g7)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return ipv4Of(g6, g7)
  if (g0 === 0x2002) return ipv4Of(g1, g2)
  return address
}

/**
 * The outbound address policy: which addresses a connection made for someone else may
 * reach. Every non-public range is refused unless allowed; `ranges` replaces the list
 * (tests of the fetch itself, whose servers can only listen on this machine).
 */
export class AddressPolicy {
  /** The ranges refused. */
  readonly ranges: readonly AddressRange[]
  readonly #ipv4 = new BlockList()
  readonly #ipv6 = new BlockList()

  constructor(
    allowance: AddressAllowance = {},
    ranges: readonly AddressRange[] = NON_PUBLIC_RANGES,
  ) {
    this.ranges = ranges.filter((r) =>
      r.kind === 'loopback' ? allowance.loopback !== true : allowance.nonPublic !== true,
    )
    for (const r of this.ranges)
      (r.family === 'ipv4' ? this.#ipv4 : this.#ipv6).addSubnet(r.network, r.prefix, r.family)
  }

  /**
   * Why an address may not be reached, or null when it may. Anything that is not an IP
   * address is refused.
   *
   * @example
   * new AddressPolicy().refusal('8.8.8.8')           // null
   * new AddressPolicy().refusal('[::10.0.0.1]')?.checkedAs // '10.0.0.1'
   */
  refusal(address: string): AddressRefusal | null {
    const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
    const checkedAs = carriedIpv4(bare)
    const family = isIPv4(checkedAs) ? 'ipv4' : isIPv6(checkedAs) ? 'ipv6' : null
    if (family === null) return { address: bare, checkedAs, range: null }
    if (!(family === 'ipv4' ? this.#ipv4 : this.#ipv6).check(checkedAs, family)) return null
    return { address: bare, checkedAs, range: this.#rangeOf(checkedAs, family) }
  }

  #rangeOf(address: string, family: 'ipv4' | 'ipv6'): AddressRange | null {
    for (const r of this.ranges) {
      if (r.family !== family) continue
      const one = new BlockList()
      one.addSubnet(r.network, r.prefix, family)
      if (one.check(address, family)) return r
    }
    return null
  }
}

/** One answer of a resolver. */
export interface ResolvedAddress {
  address: string
  family: number
}

/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), every answer in its order. */
export const systemResolver: Resolver = (hostname) =>
  dnsLookup(hostname, { all: true, order: 'verbatim' })

/**
 * The addresses of a URL host, every one checked: an IP address is checked as it is, a
 * name is resolved once and refused whole when any answer is refused (a name that also
 * answers a private address is not trusted with the public one either).
 *
 * @example
 * await checkedAddresses('hooks.example', new AddressPolicy()) // [{ address: '203.0.113.9', family: 4 }]
 * await checkedAddresses('[::1]', new AddressPolicy()) // AddressRefusedError: [::1] is on this machine (::1/128)
 */
export async function checkedAddresses(
  host: string,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<ResolvedAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '')
  const literal = isIPv4(bare) ? 4 : isIPv6(bare) ? 6 : 0
  const answers = literal !== 0 ? [{ address: bare, family: literal }] : await resolve(bare)
  if (answers.length === 0) throw new Error(`${host} has no address`)
  for (const answer of answers) {
    const refusal = policy.refusal(answer.address)
    if (refusal !== null) throw new AddressRefusedError(host, refusal)
  }
  return answers
}

/**
 * A `lookup` for http(s).request that resolves the host at each connection and hands the
 * socket only addresses the policy allows: a name that answered a public address when its
 * URL was checked cannot be turned to an inside one later (DNS rebinding).
 */
export function checkedLookup(
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, policy, resolve).then(
      (answers) => {
        if (options.all) return callback(null, answers)
        const first = answers[0] as ResolvedAddress
        callback(null, first.address, first.family)
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    )
  }
}
