import type { IncomingMessage } from 'node:http'
import { hostname, networkInterfaces } from 'node:os'

// DNS rebinding: a page of evil.example whose name is made to resolve to this server's
// address would otherwise be answered as one of ours, with the browser's cookies for it
// left out but every unauthenticated route open. The team server answers only requests
// whose Host names it.

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/** Whether `host` (a bound address) is this machine's loopback. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host)
}

/** Whether `host` binds every interface. */
function isEveryInterface(host: string): boolean {
  return host === '0.0.0.0' || host === '::'
}

/** An address as a Host header writes it (IPv6 in brackets). */
function hostName(address: string): string {
  return address.includes(':') ? `[${address}]` : address
}

/**
 * The Host header values the server answers: its bound address (on every interface, each
 * interface's address and the machine's name), the loopback names when it listens there,
 * and the `--public-url` host. Lower case, with the port (and without it on port 80).
 *
 * @example
 * servedHosts({ host: '127.0.0.1', port: 8080, publicUrl: null })
 * // Set { '127.0.0.1:8080', 'localhost:8080', '[::1]:8080' }
 */
export function servedHosts(options: {
  host: string
  port: number
  publicUrl: URL | null
}): ReadonlySet<string> {
  const { host, port, publicUrl } = options
  const names = new Set<string>()
  if (isEveryInterface(host)) {
    for (const addresses of Object.values(networkInterfaces()))
      for (const a of addresses ?? []) names.add(hostName(a.address))
    names.add(hostname())
    for (const name of LOOPBACK_NAMES) names.add(name)
  } else {
    names.add(hostName(host))
    if (isLoopback(host)) for (const name of LOOPBACK_NAMES) names.add(name)
  }
  const served = new Set<string>()
  for (const name of names) {
    served.add(`${name.toLowerCase()}:${port}`)
    if (port === 80) served.add(name.toLowerCase())
  }
  if (publicUrl) served.add(publicUrl.host.toLowerCase())
  return served
}

/** Whether a request's Host header names this server. */
export function isServedHost(request: IncomingMessage, served: ReadonlySet<string>): boolean {
  const host = request.headers.host
  return host !== undefined && served.has(host.toLowerCase())
}
