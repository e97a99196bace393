import { describe, expect, it } from 'vitest'
import { TeamRole } from '@shared/domain/team-roles'
import { CHANNEL_ROLES, mayUse, refusalMessage } from '@shared/ipc/channel-roles'
import { CHANNELS, contract } from '@shared/ipc/contract'

// The contract names the least role of every channel in the channel's own entry: a channel
// added without a role fails here (and does not compile), and no change is a viewer's.

describe('channel roles', () => {
  it('names a role in every entry of the contract', () => {
    for (const channel of CHANNELS)
      expect(TeamRole.safeParse(contract[channel].role).success, channel).toBe(true)
  })

  it('reads the role table from the contract, for exactly its channels', () => {
    expect(Object.keys(CHANNEL_ROLES).sort()).toEqual([...CHANNELS].sort())
    for (const channel of CHANNELS) expect(CHANNEL_ROLES[channel]).toBe(contract[channel].role)
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
    expect(refusalMessage('viewer', 'webhooks:list')).toBe(
      'Your role (viewer) cannot fetch webhooks from the service (it spends credits) — ask an admin.',
    )
    expect(refusalMessage('viewer', 'users:add')).toBe(
      'Your role (viewer) cannot use users:add — ask an admin.',
    )
  })
})
