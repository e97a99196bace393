import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { servedHostCheck } from '../../../src-main/shell/team/served-hosts'

// Which Host headers name the team server: its bound address, loopback names when bound
// there, its public URL's host; the default port of plain HTTP may be left out.

const withHost = (host?: string) =>
  ({ headers: host === undefined ? {} : { host } }) as IncomingMessage

describe('served hosts', () => {
  it('on loopback port 80: the loopback names with or without the port', () => {
    const isServed = servedHostCheck({ host: '127.0.0.1', port: 80, publicUrl: null })
    for (const host of [
      '127.0.0.1',
      '127.0.0.1:80',
      'localhost',
      'LOCALHOST:80',
      '[::1]',
      '[::1]:080',
    ])
      expect(isServed(withHost(host)), host).toBe(true)
    for (const host of [
      undefined,
      '',
      'evil.example',
      'evil.example:80',
      '127.0.0.2',
      'localhost:8080',
      'a@localhost',
    ])
      expect(isServed(withHost(host)), String(host)).toBe(false)
  })

  it('bound to one LAN address: that address only, not loopback names', () => {
    const isServed = servedHostCheck({ host: '192.0.2.10', port: 8080, publicUrl: null })
    expect(isServed(withHost('192.0.2.10:8080'))).toBe(true)
    expect(isServed(withHost('localhost:8080'))).toBe(false)
  })

  it('bound to an IPv6 address: in brackets', () => {
    const isServed = servedHostCheck({ host: '::1', port: 9000, publicUrl: null })
    expect(isServed(withHost('[::1]:9000'))).toBe(true)
    expect(isServed(withHost('::1:9000'))).toBe(false)
  })

  it('with a public URL on a custom port: that host and port', () => {
    const publicUrl = new URL('http://team.example:8443/')
    const isServed = servedHostCheck({ host: '127.0.0.1', port: 3000, publicUrl })
    expect(isServed(withHost('team.example:8443'))).toBe(true)
    expect(isServed(withHost('team.example'))).toBe(false)
    expect(isServed(withHost('127.0.0.1:3000'))).toBe(true)
  })
})
