import { z } from 'zod'

/**
 * Whether a URL host name is this computer: `localhost`, an address of 127.0.0.0/8, `::1`
 * or 127.0.0.0/8 mapped into IPv6 (bracketed, as URL host names are). The WHATWG URL
 * parser has already turned other spellings (`127.1`, `0x7f.0.0.1`, `2130706433`,
 * `[::ffff:127.0.0.1]`) into these forms.
 *
 * @example
 * isLoopbackHost('127.0.0.1')       // true
 * isLoopbackHost('[::1]')           // true
 * isLoopbackHost('[::ffff:7f00:1]') // true
 * isLoopbackHost('10.0.0.1')        // false
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return (
    host === 'localhost' ||
    host === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  )
}

/** Whether a URL may carry the API key: https, or plain http that never leaves this computer. */
export function isKeySafeUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url)
    return protocol === 'https:' || (protocol === 'http:' && isLoopbackHost(hostname))
  } catch {
    return false
  }
}

/**
 * A base URL of the data service. Every call to it carries the API key (in the query string
 * for JSON-RPC: docs/service.md, Auth), so plain http would send the key in clear text: it is
 * allowed only to this computer (a local simulator or proxy).
 */
export const ServiceUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .refine(isKeySafeUrl, {
    error:
      'must use https: plain http would send the API key in clear text (http is allowed only to localhost, 127.x.x.x and ::1)',
  })
