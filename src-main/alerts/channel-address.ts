import { isLoopbackHost } from '@shared/domain/service-url'
import { AppError } from '@shared/ipc/ipc-errors'
import {
  AddressPolicy,
  AddressRefusedError,
  checkedAddresses,
  systemResolver,
  type Resolver,
} from '../service/outbound-address'

// Where an outbound channel may send: https anywhere public; plain http only to this
// computer (the body would cross the network in clear text); this machine only when the
// URL names it (localhost, 127.x.x.x, ::1) and the person at it asks, never a team
// account; every other non-public address (private, carrier-grade NAT, link-local,
// unspecified, multicast, reserved, and IPv6 forms carrying one) only by an admin's
// explicit choice, so that a channel cannot be used to reach the machines behind a server.

/** What a channel may reach besides the public internet. */
export interface ChannelReach {
  /** An admin allowed private networks (and this machine) for this channel. */
  allowPrivateNetwork: boolean
  /**
   * The person at this machine may point a channel at it by naming it in the URL; a team
   * account may not (the server's own ports are not theirs to reach).
   */
  isThisMachinesUser: boolean
}

/**
 * The address policy of a channel's connections: the URL's own host decides whether this
 * machine may be reached, so a public name that later answers 127.0.0.1 is still refused.
 */
export function channelAddressPolicy(url: URL, reach: ChannelReach): AddressPolicy {
  return new AddressPolicy({
    loopback:
      reach.allowPrivateNetwork || (reach.isThisMachinesUser && isLoopbackHost(url.hostname)),
    nonPublic: reach.allowPrivateNetwork,
  })
}

/** A channel URL's scheme and host with its path and query hidden, e.g. `https://hooks.slack.com/***`. */
export function shownChannelUrl(url: URL): string {
  const hasMore = url.pathname !== '/' || url.search !== '' || url.hash !== ''
  return `${url.protocol}//${url.host}${hasMore ? '/***' : '/'}`
}

/**
 * Parses a channel URL and checks its scheme and host; throws an error naming the bad
 * part and the rule. The host is resolved: a name any of whose addresses is refused is
 * refused like the address itself.
 */
export async function checkChannelUrl(
  text: string,
  reach: ChannelReach,
  resolve: Resolver = systemResolver,
): Promise<URL> {
  const url = URL.parse(text)
  if (url === null)
    throw new AppError('The channel URL is not a URL (expected e.g. https://example.com/hook).')
  if (url.username !== '' || url.password !== '')
    throw new AppError(
      'The channel URL must not carry a user name or password; use --secret to sign bodies.',
    )
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new AppError(
      `The channel URL must use https: plain http would send alerts in clear text (http is allowed only to localhost, 127.x.x.x and ::1; got host ${url.hostname}).`,
    )
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AppError(`The channel URL must be an https URL (got the scheme ${url.protocol}).`)
  try {
    await checkedAddresses(url.hostname, channelAddressPolicy(url, reach), resolve)
  } catch (error) {
    if (!(error instanceof AddressRefusedError)) return url // unresolvable now: checked again at each send
    const { range } = error.refusal
    const isTheServer = range?.kind === 'loopback' && !reach.isThisMachinesUser
    throw new AppError(
      `The channel URL's host ${error.message}; ${
        isTheServer
          ? 'on a team server a channel reaches the server itself only by an admin’s explicit choice'
          : 'only an admin may allow that'
      }, with --allow-private-network.`,
      { rule: range === null ? null : `${range.network}/${range.prefix}` },
    )
  }
  return url
}
