import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import { isLoopbackHost } from '@shared/domain/service-url'
import { AppError } from '@shared/ipc/ipc-errors'

// Where an outbound channel may send: https anywhere public; plain http only to this
// computer (the body would cross the network in clear text); a private-network address
// only by an admin's explicit choice, so that a channel cannot be used to reach the
// machines behind a team server.

const PRIVATE_NETWORKS = new BlockList()
PRIVATE_NETWORKS.addSubnet('10.0.0.0', 8, 'ipv4')
PRIVATE_NETWORKS.addSubnet('172.16.0.0', 12, 'ipv4')
PRIVATE_NETWORKS.addSubnet('192.168.0.0', 16, 'ipv4')
PRIVATE_NETWORKS.addSubnet('169.254.0.0', 16, 'ipv4')
PRIVATE_NETWORKS.addSubnet('fc00::', 7, 'ipv6')
PRIVATE_NETWORKS.addSubnet('fe80::', 10, 'ipv6')

/** Whether an IP address is on a private network (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10). */
export function isPrivateNetworkAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is the IPv4 one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1]
  if (mapped !== undefined) return PRIVATE_NETWORKS.check(mapped, 'ipv4')
  const family = isIP(bare)
  if (family === 0) return false
  return PRIVATE_NETWORKS.check(bare, family === 4 ? 'ipv4' : 'ipv6')
}

/** A channel URL's scheme and host with its path and query hidden, e.g. `https://hooks.slack.com/***`. */
export function shownChannelUrl(url: URL): string {
  const hasMore = url.pathname !== '/' || url.search !== '' || url.hash !== ''
  return `${url.protocol}//${url.host}${hasMore ? '/***' : '/'}`
}

/**
 * Parses a channel URL and checks its scheme and host; throws an error naming the bad
 * part. The host is resolved: a name that points to a private-network address is refused
 * like the address itself, unless `allowPrivateNetwork`.
 */
export async function checkChannelUrl(
  text: string,
  options: { allowPrivateNetwork: boolean },
): Promise<URL> {
  const url = URL.parse(text)
  if (url === null)
    throw new AppError('The channel URL is not a URL (expected e.g. https://example.com/hook).')
  if (url.username !== '' || url.password !== '')
    throw new AppError(
      'The channel URL must not carry a user name or password; use --secret to sign bodies.',
    )
  const isLoopback = isLoopbackHost(url.hostname)
  if (url.protocol === 'http:' && !isLoopback)
    throw new AppError(
      `The channel URL must use https: plain http would send alerts in clear text (http is allowed only to localhost, 127.x.x.x and ::1; got host ${url.hostname}).`,
    )
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AppError(`The channel URL must be an https URL (got the scheme ${url.protocol}).`)
  if (isLoopback || options.allowPrivateNetwork) return url
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const addresses =
    isIP(host) !== 0 ? [host] : await resolvedAddresses(host).catch(() => [] as string[])
  const privateOne = addresses.find(isPrivateNetworkAddress)
  if (privateOne !== undefined)
    throw new AppError(
      `The channel URL's host ${url.hostname} ${privateOne === host ? 'is' : `resolves to ${privateOne}, which is`} on a private network; only an admin may allow that, with --allow-private-network.`,
    )
  return url
}

async function resolvedAddresses(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address)
}
