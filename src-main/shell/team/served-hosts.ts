import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'

// DNS rebinding: a page of another site whose name is made to resolve to this server's
// address talks to it as its own origin, and its requests name that site in `Host`. The
// server answers only requests that name it, so such a page reaches nothing.

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/** Where the server listens and where browsers reach it. */
export interface ServedAddress {
  /** The interface it is bound to: an IP literal, a name, or 0.0.0.0 / :: for all. */
  host: string
  port: number
  /** The public URL it was started with, if any. */
  publicUrl: URL | null
}

/** A Host header's form of a host and port: IPv6 literals in brackets, port 80 also left out. */
function hostNames(host: string, port: number): string[] {
  const bracketed = (isIP(host) === 6 ? `[${host}]` : host).toLowerCase()
  // Browsers leave out the default port of plain HTTP (the server's own scheme).
  return port === 80 ? [`${bracketed}:80`, bracketed] : [`${bracketed}:${port}`]
}

/** A Host header as `name` or `name:port` (port without leading zeros); null when malformed. */
function normalHost(header: string): string | null {
  const parts = /^(\[[0-9a-f:.]+\]|[^:[\]/\\@?#\s]+)(?::(\d{1,5}))?$/.exec(header.toLowerCase())
  if (parts === null) return null
  const [, name, port] = parts
  return port === undefined ? (name as string) : `${name}:${Number(port)}`
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

function isEveryInterface(host: string): boolean {
  return host === '0.0.0.0' || host === '::'
}

/** The addresses of this machine's interfaces, as Host headers name them with `port`. */
function interfaceHosts(port: number): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .flatMap((a) => hostNames(a.address, port))
}

/**
 * Whether a request's `Host` names this server: its bound host and port; the loopback
 * names when bound to loopback or to every interface; then also the machine's interface
 * addresses; and the public URL's host when one is set. A name for a LAN server is given
 * with `--public-url`.
 */
export function servedHostCheck(served: ServedAddress): (request: IncomingMessage) => boolean {
  const { host, port, publicUrl } = served
  const names = new Set<string>(hostNames(host, port))
  if (isLoopback(host) || isEveryInterface(host))
    for (const name of LOOPBACK_NAMES) for (const n of hostNames(name, port)) names.add(n)
  if (publicUrl !== null) {
    // URL.host leaves out the scheme's default port, as browsers do; a client may send it.
    names.add(publicUrl.host.toLowerCase())
    const defaultPort = publicUrl.protocol === 'https:' ? 443 : 80
    if (publicUrl.port === '') names.add(`${publicUrl.hostname.toLowerCase()}:${defaultPort}`)
  }
  return (request) => {
    const named = normalHost(request.headers.host ?? '')
    if (named === null) return false
    if (names.has(named)) return true
    // Interfaces come and go (a new lease, a VPN): looked up again when a name is not known.
    return isEveryInterface(host) && interfaceHosts(port).includes(named)
  }
}

/** The plain-text reason a request naming another host is refused with. */
export const MISDIRECTED_MESSAGE =
  'Misdirected request: this server answers only at its own address. ' +
  'To reach it under another name, start it with --public-url.'
