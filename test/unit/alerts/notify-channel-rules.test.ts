import { describe, expect, it } from 'vitest'
import { shownChannelUrl } from '../../../src-main/alerts/channel-address'
import { mayUse, refusalMessage } from '../../../src-shared/ipc/channel-roles'

describe('outbound channel rules', () => {
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
