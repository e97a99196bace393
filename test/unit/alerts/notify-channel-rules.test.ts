import { describe, expect, it } from 'vitest'
import { isPrivateNetworkAddress, shownChannelUrl } from '../../../src-main/alerts/channel-address'
import { mayUse, refusalMessage } from '../../../src-shared/ipc/channel-roles'

describe('outbound channel rules', () => {
  it('knows the private networks, also written as IPv6-mapped IPv4', () => {
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.0.10',
      '169.254.169.254',
      'fd12::1',
      'fe80::1',
      '::ffff:10.1.1.1',
      '[fc00::2]',
    ])
      expect(isPrivateNetworkAddress(address), address).toBe(true)
    for (const address of [
      '8.8.8.8',
      '172.32.0.1',
      '127.0.0.1',
      '::1',
      '2606:4700::1111',
      'hooks.slack.com',
    ])
      expect(isPrivateNetworkAddress(address), address).toBe(false)
  })

  it('shows a URL by scheme and host only', () => {
    expect(shownChannelUrl(new URL('https://hooks.slack.com/services/T0/B0/XYZ?x=1'))).toBe(
      'https://hooks.slack.com/***',
    )
    expect(shownChannelUrl(new URL('https://example.com:8443/'))).toBe('https://example.com:8443/')
  })

  it('lets every role list channels, and only admins manage them', () => {
    expect(mayUse('viewer', 'notify:list')).toBe(true)
    for (const channel of ['notify:add', 'notify:remove', 'notify:test']) {
      expect(mayUse('editor', channel)).toBe(false)
      expect(mayUse('admin', channel)).toBe(true)
    }
    expect(refusalMessage('editor', 'notify:add')).toBe(
      'Your role (editor) cannot manage alert channels — ask an admin.',
    )
  })
})
