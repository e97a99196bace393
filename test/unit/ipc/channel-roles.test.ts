import { describe, expect, it } from 'vitest'
import { CHANNEL_ROLES, mayUse, refusalMessage } from '@shared/ipc/channel-roles'
import { CHANNELS } from '@shared/ipc/contract'

// One table names the least role of every channel: a channel added to the contract
// without a role fails here (and does not compile), and no change is a viewer's.

describe('channel roles', () => {
  it('names a role for exactly the channels of the contract', () => {
    expect(Object.keys(CHANNEL_ROLES).sort()).toEqual([...CHANNELS].sort())
  })

  it('lets viewers only read: every channel that changes or spends is an editor’s or an admin’s', () => {
    const changes = [
      'watchlist:add',
      'watchlist:rename',
      'watchlist:remove',
      'watchlist:reorder',
      'settings:update',
      'sync:start',
      'sync:run',
      'sync:pause',
      'sync:set-depth',
      'lookup:run',
      'balances:at',
      'webhooks:create',
      'webhooks:delete',
      'webhooks:list',
      'demo:add-wallets',
    ]
    for (const channel of changes) {
      expect(mayUse('viewer', channel), channel).toBe(false)
      expect(mayUse('editor', channel), channel).toBe(true)
    }
    for (const channel of ['settings:set-api-key', 'settings:clear-api-key', 'data:delete-all']) {
      expect(mayUse('editor', channel), channel).toBe(false)
      expect(mayUse('admin', channel), channel).toBe(true)
    }
    for (const channel of ['watchlist:list', 'history:page', 'export:run', 'credits:overview'])
      expect(mayUse('viewer', channel), channel).toBe(true)
  })

  it('refuses unknown channels to every role', () => {
    expect(mayUse('admin', 'users:add')).toBe(false)
  })

  it('says what the role cannot do', () => {
    expect(refusalMessage('viewer', 'watchlist:add')).toBe(
      'Your role (viewer) cannot change the watchlist — ask an admin.',
    )
    expect(refusalMessage('editor', 'settings:clear-api-key')).toBe(
      'Your role (editor) cannot manage the API key — ask an admin.',
    )
  })
})
