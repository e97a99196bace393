import { afterEach, describe, expect, it } from 'vitest'
import { openEngineMirror } from '../../helpers/engine-mirror'
import { ENGINES } from '../../helpers/sync-fixture'
import { testAddress } from '../../helpers/wallets'

// The team server's accounts and sessions on both engines: the store speaks Kysely only,
// so PostgreSQL keeps them as SQLite does, and "delete all data" leaves them in place.

describe.each(ENGINES)('team accounts on %s', (engine) => {
  let drop: () => Promise<void> = async () => {}
  afterEach(() => drop())

  it('adds, lists, re-roles and removes accounts; sessions follow their account', async () => {
    const opened = await openEngineMirror(engine)
    drop = opened.drop
    const { team } = opened.mirror
    await team.addUser('bo', 'viewer', '$argon2id$bo', 100)
    await team.addUser('ana', 'admin', '$argon2id$ana', 200)
    await expect(team.addUser('ana', 'viewer', 'x', 300)).rejects.toThrow(
      'There is already a user named “ana”.',
    )
    expect(await team.listUsers()).toEqual([
      { name: 'ana', role: 'admin', createdAtSec: 200 },
      { name: 'bo', role: 'viewer', createdAtSec: 100 },
    ])
    expect(await team.credentials('bo')).toEqual({ role: 'viewer', passwordHash: '$argon2id$bo' })
    expect(await team.credentials('nobody')).toBeNull()

    await team.addSession('hash-1', 'bo', 1_000)
    await team.addSession('hash-2', 'bo', 1_000)
    await team.setRole('bo', 'editor')
    expect(await team.findSession('hash-1')).toEqual({
      userName: 'bo',
      role: 'editor',
      createdAtSec: 1_000,
      lastSeenAtSec: 1_000,
      isPasswordOneTime: true,
    })
    await team.touchSession('hash-1', 5_000)
    await team.removeExpiredSessions(2_000, 0)
    expect(await team.findSession('hash-1')).toMatchObject({ lastSeenAtSec: 5_000 })
    expect(await team.findSession('hash-2')).toBeNull()
    await team.removeExpiredSessions(0, 1_001)
    expect(await team.findSession('hash-1')).toBeNull()

    await team.addSession('hash-3', 'bo', 9_000)
    await team.removeUser('bo')
    expect(await team.findSession('hash-3')).toBeNull()
    await expect(team.removeUser('bo')).rejects.toThrow('There is no user named “bo”.')
    await expect(team.setRole('bo', 'admin')).rejects.toThrow('There is no user named “bo”.')
  })

  it('replaces a password: one-time or chosen, ending the sessions but the one that chose', async () => {
    const opened = await openEngineMirror(engine)
    drop = opened.drop
    const { team } = opened.mirror
    await team.addUser('cy', 'editor', '$argon2id$first', 1)
    await team.addSession('cy-1', 'cy', 1)
    await team.addSession('cy-2', 'cy', 1)
    expect(await team.findSession('cy-1')).toMatchObject({ isPasswordOneTime: true })

    await team.setPassword('cy', '$argon2id$chosen', 'chosen', 'cy-1')
    expect(await team.credentials('cy')).toEqual({
      role: 'editor',
      passwordHash: '$argon2id$chosen',
    })
    expect(await team.findSession('cy-1')).toMatchObject({ isPasswordOneTime: false })
    expect(await team.findSession('cy-2')).toBeNull()

    await team.setPassword('cy', '$argon2id$reset', 'one-time')
    expect(await team.findSession('cy-1')).toBeNull()
    await team.addSession('cy-3', 'cy', 2)
    expect(await team.findSession('cy-3')).toMatchObject({ isPasswordOneTime: true })
    await expect(team.setPassword('nobody', 'x', 'one-time')).rejects.toThrow(
      'There is no user named “nobody”.',
    )
  })

  it('keeps accounts and sessions when all data is deleted', async () => {
    const opened = await openEngineMirror(engine)
    drop = opened.drop
    const { mirror } = opened
    await mirror.team.addUser('ana', 'admin', '$argon2id$ana', 1)
    await mirror.team.addSession('hash', 'ana', 1)
    await mirror.watchlist.add({ address: testAddress(5) }, 1)
    await mirror.deleteAllData()
    expect(await mirror.watchlist.list()).toEqual([])
    expect(await mirror.team.listUsers()).toHaveLength(1)
    expect(await mirror.team.findSession('hash')).toMatchObject({ userName: 'ana' })
  })
})
