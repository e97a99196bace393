import { describe, expect, it } from 'vitest'
import { AddressRules, unmapped } from '../../../src-main/app/public-address'

// The image fetcher connects only to public addresses. Node's BlockList answers IPv4
// checks from an IPv6 list's ::ffff:0:0/96 too, which once refused every IPv4 address:
// the two families are kept apart, and IPv4 inside IPv6 is checked as the IPv4 host.

describe('public addresses: what a stranger’s URI may reach', () => {
  const rules = new AddressRules()

  it.each(['198.51.100.7', '8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => expect(rules.refusal(address)).toBeNull(),
  )

  it.each([
    ['10.0.0.1', 'a private network'],
    ['127.0.0.1', 'this machine'],
    ['::1', 'this machine'],
    ['[::1]', 'this machine'],
    ['::ffff:127.0.0.1', 'this machine'],
    ['::ffff:7f00:1', 'this machine'],
    ['::ffff:10.0.0.1', 'a private network'],
    ['64:ff9b::7f00:1', 'this machine'],
    ['fe80::1', 'a link-local network'],
    ['fe80::1%eth0', 'a link-local network'],
    ['fc00::1', 'a private network'],
    ['169.254.169.254', 'a link-local network'],
    ['100.64.0.1', 'a carrier-grade NAT network'],
    ['0.0.0.0', 'this network'],
    ['::', 'this network'],
    ['224.0.0.1', 'a multicast group'],
    ['ff02::1', 'a multicast group'],
    ['192.168.1.1', 'a private network'],
    ['172.31.255.255', 'a private network'],
    ['not-an-address', 'not an IP address'],
  ])('%s is refused as %s', (address, what) => expect(rules.refusal(address)).toBe(what))

  it('unmaps IPv4 written inside IPv6, and leaves other addresses alone', () => {
    expect(unmapped('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(unmapped('::FFFF:C000:0201')).toBe('192.0.2.1')
    expect(unmapped('2001:db8::1')).toBe('2001:db8::1')
  })

  it('a rule set without loopback lets this machine through (for tests of the fetch itself)', () => {
    const withoutLoopback = new AddressRules(
      new AddressRules().ranges.filter((r) => r.what !== 'this machine'),
    )
    expect(withoutLoopback.refusal('127.0.0.1')).toBeNull()
    expect(withoutLoopback.refusal('10.0.0.1')).toBe('a private network')
  })
})
