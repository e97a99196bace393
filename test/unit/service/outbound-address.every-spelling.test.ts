import { isIP } from 'node:net'
import { describe, expect, it } from 'vitest'
import { checkChannelUrl } from '../../../src-main/alerts/channel-address'
import {
  AddressPolicy,
  carriedIpv4,
  checkedAddresses,
  type Resolver,
} from '../../../src-main/service/outbound-address'

// Issue 50, item 1: one address policy for every outbound connection. The outside review
// reached the inside through these spellings; each is refused here by the rule it breaks,
// at add time (the channel URL) and by the check every connection makes (its answers).

/** Names and what they answer, as a resolver (DNS) would. */
const NAMES: Record<string, string[]> = {
  'zero.example': ['0.0.0.0'],
  'loop.example': ['127.0.0.1'],
  'cgnat.example': ['100.64.0.1'],
  'mapped.example': ['::ffff:10.0.0.1'],
  'half-inside.example': ['203.0.113.5', '10.0.0.1'],
  'public.example': ['203.0.113.5', '2001:db8::5'],
}
const resolve: Resolver = async (host) => {
  const answers = NAMES[host]
  if (answers === undefined) throw new Error(`getaddrinfo ENOTFOUND ${host}`)
  return answers.map((address) => ({ address, family: isIP(address) }))
}

/** Every URL the review found accepted, with the range its host is refused by. */
const REFUSED_EVERYWHERE: [url: string, rule: string][] = [
  ['https://100.64.0.1/', '100.64.0.0/10'],
  ['https://100.127.255.254/', '100.64.0.0/10'],
  ['https://[::10.0.0.1]/', '10.0.0.0/8'],
  ['https://[64:ff9b::a00:1]/', '10.0.0.0/8'],
  ['https://[64:ff9b::10.0.0.1]/', '10.0.0.0/8'],
  ['https://0.0.0.0/', '0.0.0.0/8'],
  ['https://[::]/', '::/128'],
  ['https://zero.example/', '0.0.0.0/8'],
  ['https://cgnat.example/', '100.64.0.0/10'],
  ['https://mapped.example/', '10.0.0.0/8'],
  ['https://half-inside.example/', '10.0.0.0/8'],
  ['https://[2002:a00:1::1]/', '10.0.0.0/8'],
  ['https://[::ffff:172.16.0.1]/', '172.16.0.0/12'],
  ['https://169.254.169.254/', '169.254.0.0/16'],
  ['https://[::ffff:a9fe:a9fe]/', '169.254.0.0/16'],
  ['https://10.1.2.3/', '10.0.0.0/8'],
  ['https://192.168.1.1/', '192.168.0.0/16'],
  ['https://[fd00::1]/', 'fc00::/7'],
  ['https://[fe80::1]/', 'fe80::/10'],
  ['https://224.0.0.1/', '224.0.0.0/4'],
  ['https://[ff02::1]/', 'ff00::/8'],
  ['https://255.255.255.255/', '240.0.0.0/4'],
  ['https://198.18.0.1/', '198.18.0.0/15'],
  // A name answering this machine is not this machine's own spelling: refused for anyone.
  ['https://loop.example/', '127.0.0.0/8'],
]

/** This machine in every spelling a URL parser accepts. */
const THIS_MACHINE: [url: string, rule: string][] = [
  ['https://127.0.0.1/', '127.0.0.0/8'],
  ['https://[::1]/', '::1/128'],
  ['https://[::ffff:127.0.0.1]/', '127.0.0.0/8'],
  ['https://localhost/', '127.0.0.0/8'],
  ['https://2130706433/', '127.0.0.0/8'],
  ['https://0177.0.0.1/', '127.0.0.0/8'],
  ['https://0x7f000001/', '127.0.0.0/8'],
  ['https://127.1/', '127.0.0.0/8'],
  ['https://127.255.255.254/', '127.0.0.0/8'],
]
const localhostResolve: Resolver = async (host) =>
  host === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : resolve(host)

const asTeamAccount = { allowPrivateNetwork: false, isThisMachinesUser: false }
const asThisMachinesUser = { allowPrivateNetwork: false, isThisMachinesUser: true }
const allowedByAdmin = { allowPrivateNetwork: true, isThisMachinesUser: false }

describe('the outbound address policy, every spelling', () => {
  it.each(REFUSED_EVERYWHERE)('%s is refused by %s, whoever adds it', async (url, rule) => {
    for (const reach of [asTeamAccount, asThisMachinesUser]) {
      const refused = checkChannelUrl(url, reach, localhostResolve)
      await expect(refused).rejects.toThrow(`(${rule})`)
      await expect(refused).rejects.toMatchObject({ details: { rule } })
      await expect(refused).rejects.toThrow(/with --allow-private-network\.$/)
    }
  })

  it.each(REFUSED_EVERYWHERE)(
    '%s is accepted when an admin allows private networks',
    async (url) => {
      await expect(checkChannelUrl(url, allowedByAdmin, localhostResolve)).resolves.toBeInstanceOf(
        URL,
      )
    },
  )

  it.each(THIS_MACHINE)(
    '%s (this machine) is refused for a team account, by %s',
    async (url, rule) => {
      const refused = checkChannelUrl(url, asTeamAccount, localhostResolve)
      await expect(refused).rejects.toMatchObject({ details: { rule } })
      await expect(refused).rejects.toThrow(
        /on a team server a channel reaches the server itself only by an admin’s explicit choice/,
      )
    },
  )

  it.each(THIS_MACHINE)(
    '%s is allowed to the person at this machine, who named it',
    async (url) => {
      await expect(
        checkChannelUrl(url, asThisMachinesUser, localhostResolve),
      ).resolves.toBeInstanceOf(URL)
    },
  )

  it('names the address a name resolved to, and the IPv4 host an IPv6 address carries', async () => {
    await expect(
      checkChannelUrl('https://half-inside.example/hook', asThisMachinesUser, resolve),
    ).rejects.toThrow(
      "The channel URL's host half-inside.example resolves to 10.0.0.1, which is on a private network (10.0.0.0/8); only an admin may allow that, with --allow-private-network.",
    )
    await expect(
      checkChannelUrl('https://[64:ff9b::a00:1]/', asThisMachinesUser, resolve),
    ).rejects.toThrow(
      "The channel URL's host [64:ff9b::a00:1] is on a private network (10.0.0.0/8) (it reaches the IPv4 host 10.0.0.1); only an admin may allow that, with --allow-private-network.",
    )
  })

  it('lets public hosts through, every answer checked', async () => {
    for (const url of [
      'https://public.example/hook',
      'https://203.0.113.5/',
      'https://[2606:4700::1111]/',
      'https://[::ffff:8.8.8.8]/',
      'https://[64:ff9b::808:808]/',
    ])
      await expect(checkChannelUrl(url, asTeamAccount, resolve), url).resolves.toBeInstanceOf(URL)
  })

  it('checks each connection’s answers: a name that turns to the inside is refused then (DNS rebinding)', async () => {
    let calls = 0
    const rebinding: Resolver = async () => {
      calls++
      return [{ address: calls === 1 ? '203.0.113.5' : '127.0.0.1', family: 4 }]
    }
    const policy = new AddressPolicy()
    await expect(checkedAddresses('rebind.example', policy, rebinding)).resolves.toEqual([
      { address: '203.0.113.5', family: 4 },
    ])
    await expect(checkedAddresses('rebind.example', policy, rebinding)).rejects.toThrow(
      'rebind.example resolves to 127.0.0.1, which is on this machine (127.0.0.0/8)',
    )
  })

  it('reads IPv4 inside IPv6 in every written form', () => {
    expect(carriedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1')
    expect(carriedIpv4('::FFFF:7F00:1')).toBe('127.0.0.1')
    expect(carriedIpv4('::a00:1')).toBe('10.0.0.1')
    expect(carriedIpv4('::10.0.0.1')).toBe('10.0.0.1')
    expect(carriedIpv4('64:ff9b::a00:1')).toBe('10.0.0.1')
    expect(carriedIpv4('2002:a9fe:a9fe::1')).toBe('169.254.169.254')
    // IPv6's own unspecified and loopback addresses are not IPv4-compatible ones.
    expect(carriedIpv4('::')).toBe('::')
    expect(carriedIpv4('::1')).toBe('::1')
    expect(carriedIpv4('2001:db8::1')).toBe('2001:db8::1')
  })

  it('refuses what is not an IP address, and allows loopback or the rest only when asked', () => {
    const policy = new AddressPolicy()
    expect(policy.refusal('not-an-address')?.range).toBeNull()
    expect(policy.refusal('fe80::1%eth0')?.range?.what).toBe('a link-local network')
    expect(new AddressPolicy({ loopback: true }).refusal('::ffff:127.0.0.1')).toBeNull()
    expect(new AddressPolicy({ loopback: true }).refusal('10.0.0.1')?.range?.network).toBe(
      '10.0.0.0',
    )
    expect(new AddressPolicy({ nonPublic: true }).refusal('10.0.0.1')).toBeNull()
    expect(new AddressPolicy({ nonPublic: true }).refusal('127.0.0.1')?.range?.kind).toBe(
      'loopback',
    )
  })
})
