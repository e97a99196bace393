import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'
import { FastForwardClock } from '../../helpers/virtual-clock'

describe('core: the watchlist over the dispatcher, on a real SQLite file', () => {
  let temp: ReturnType<typeof makeTempDir>
  let core: Core

  beforeEach(async () => {
    temp = makeTempDir()
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: '1.2.3',
      clock: new FastForwardClock({ wallSec: () => 1_700_000_000 }),
    })
  })
  afterEach(async () => {
    await core.close()
    temp.remove()
  })

  it('adds, lists in order, renames and removes wallets', async () => {
    const a = testAddress(1)
    const b = testAddress(2)
    expect(await core.dispatch('watchlist:add', { address: a, label: ' Trading ' })).toEqual({
      ok: true,
      result: { address: a, label: 'Trading', position: 0, addedAtSec: 1_700_000_000, tags: [] },
    })
    await core.dispatch('watchlist:add', { address: b })
    const list = await core.dispatch('watchlist:list', undefined)
    expect(
      list.ok && (list.result as WatchedWallet[]).map((w) => [w.address, w.label, w.position]),
    ).toEqual([
      [a, 'Trading', 0],
      [b, null, 1],
    ])

    const renamed = await core.dispatch('watchlist:rename', { address: b, label: 'Cold storage' })
    expect(renamed.ok && (renamed.result as WatchedWallet).label).toBe('Cold storage')
    const cleared = await core.dispatch('watchlist:rename', { address: b, label: '' })
    expect(cleared.ok && (cleared.result as WatchedWallet).label).toBeNull()

    expect(await core.dispatch('watchlist:remove', { address: a })).toEqual({
      ok: true,
      result: undefined,
    })
    const after = await core.dispatch('watchlist:list', undefined)
    expect(after.ok && (after.result as WatchedWallet[]).map((w) => w.address)).toEqual([b])
  })

  it('keeps wallets across a restart of the core', async () => {
    const a = testAddress(3)
    await core.dispatch('watchlist:add', { address: a, label: 'Kept' })
    await core.close()
    core = await createCore({ dataDir: temp.dir, shell: 'web', version: '1.2.3' })
    const list = await core.dispatch('watchlist:list', undefined)
    expect(list.ok && (list.result as WatchedWallet[])[0]).toMatchObject({
      address: a,
      label: 'Kept',
    })
  })

  it('answers an invalid address with an InvalidInputError naming the problem, and writes nothing', async () => {
    const reply = await core.dispatch('watchlist:add', { address: 'hello-world' })
    expect(reply).toMatchObject({
      ok: false,
      error: {
        name: 'InvalidInputError',
        message: expect.stringMatching(/Address is 11 characters long/),
      },
    })
    const list = await core.dispatch('watchlist:list', undefined)
    expect(list).toEqual({ ok: true, result: [] })
  })

  it('answers a duplicate with a DuplicateError that names the existing label', async () => {
    const a = testAddress(4)
    await core.dispatch('watchlist:add', { address: a, label: 'First' })
    const reply = await core.dispatch('watchlist:add', { address: a, label: 'Second' })
    expect(reply).toMatchObject({
      ok: false,
      error: {
        name: 'DuplicateError',
        message: expect.stringMatching(/already on the watchlist as “First”/),
      },
    })
  })

  it('never crashes on malformed input: wrong types, unknown channels, missing fields', async () => {
    for (const [channel, input] of [
      ['watchlist:add', null],
      ['watchlist:add', { address: 42 }],
      ['watchlist:rename', { address: testAddress(5) }],
      ['watchlist:add', { address: testAddress(5), label: 'x'.repeat(65) }],
      ['no:such-channel', {}],
    ] as const) {
      const reply = await core.dispatch(channel, input)
      expect(reply.ok, `${channel} ${JSON.stringify(input)}`).toBe(false)
      if (!reply.ok) expect(reply.error.name).toBe('InvalidInputError')
    }
    const tooLong = await core.dispatch('watchlist:add', {
      address: testAddress(5),
      label: 'x'.repeat(65),
    })
    expect(!tooLong.ok && tooLong.error.message).toMatch(/longer than 64 characters/)
  })

  it('reports NotFoundError for wallets that are not watched', async () => {
    const reply = await core.dispatch('watchlist:remove', { address: testAddress(6) })
    expect(reply).toMatchObject({ ok: false, error: { name: 'NotFoundError' } })
  })

  it('pushes watchlist:changed to subscribers after each change', async () => {
    const seen: [string, unknown][] = []
    core.events.subscribe((event, payload) => seen.push([event, payload]))
    const a = testAddress(8)
    await core.dispatch('watchlist:add', { address: a })
    await core.dispatch('watchlist:remove', { address: a })
    expect(seen.filter(([event]) => event === 'watchlist:changed')).toEqual([
      ['watchlist:changed', [expect.objectContaining({ address: a })]],
      ['watchlist:changed', []],
    ])
    // The first wallet of one's own, added on demo data, moved the app to the own mirror,
    // saying what the demo keeps (nothing was made on it here).
    expect(seen).toContainEqual([
      'app:data-source',
      { source: 'service', demoKept: { rules: 0, taggedWallets: 0 } },
    ])
  })

  it('describes itself as demo data when no API key is set', async () => {
    expect(await core.dispatch('app:info', undefined)).toEqual({
      ok: true,
      result: {
        version: '1.2.3',
        shell: 'web',
        dataSource: 'demo',
        dataDir: temp.dir,
        keyNotice: null,
        network: 'online',
      },
    })
  })
})
