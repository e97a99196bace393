import { describe, expect, it } from 'vitest'
import {
  BlockedNetworks,
  DEFAULT_BLOCKED_NETWORKS,
  unmappedIPv4,
} from '../../../src-main/app/image-address-rules'

// Issue 28, finding 3: one BlockList held `::ffff:0:0/96`, and Node's BlockList checks IPv4
// addresses against that range, so every IPv4 address was refused and no real image showed.

describe('image address rules: public addresses allowed, this machine and private networks refused', () => {
  const rules = new BlockedNetworks()

  it.each([
    ['198.51.100.7', false],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['::ffff:8.8.8.8', false],
    ['2606:4700:4700::1111', false],
    ['10.0.0.1', true],
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['0:0:0:0:0:ffff:0a00:0001', true],
    ['::ffff:10.0.0.1', true],
    ['::127.0.0.1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['ff02::1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['172.16.5.4', true],
    ['192.168.1.1', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['0.0.0.0', true],
    ['::', true],
    ['not-an-address', true],
  ])('%s refused: %s', (address, isRefused) => {
    expect(rules.refuses(address)).toBe(isRefused)
  })

  it('an IPv4-mapped IPv6 address is unmapped, in any spelling', () => {
    expect(unmappedIPv4('::ffff:127.0.0.1')).toBe('127.0.0.1')
    expect(unmappedIPv4('::FFFF:7F00:1')).toBe('127.0.0.1')
    expect(unmappedIPv4('::ffff:8.8.8.8')).toBe('8.8.8.8')
    expect(unmappedIPv4('2001:db8::1')).toBeNull()
    expect(unmappedIPv4('::1')).toBeNull()
  })

  it('the blocked networks are data: a list without loopback lets loopback through', () => {
    const withoutLoopback = new BlockedNetworks(
      DEFAULT_BLOCKED_NETWORKS.filter((n) => n !== '127.0.0.0/8'),
    )
    expect(withoutLoopback.refuses('127.0.0.1')).toBe(false)
    expect(withoutLoopback.refuses('::ffff:127.0.0.1')).toBe(false)
    expect(withoutLoopback.refuses('10.0.0.1')).toBe(true)
  })

  it('a network that is not CIDR is refused with its text named', () => {
    expect(() => new BlockedNetworks(['10.0.0.0'])).toThrow(/"10\.0\.0\.0" is not .* CIDR/)
    expect(() => new BlockedNetworks(['10.0.0.0/33'])).toThrow(/"10\.0\.0\.0\/33"/)
    expect(() => new BlockedNetworks(['example.com/8'])).toThrow(/"example\.com\/8"/)
    expect(() => new BlockedNetworks(['::ffff:0:0/96'])).toThrow(
      /IPv4 networks are written as IPv4/,
    )
  })
})
