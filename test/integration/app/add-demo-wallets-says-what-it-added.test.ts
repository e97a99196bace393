import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { DEMO_PROFILES, DEMO_WALLETS } from '../../../src-main/app/demo-data'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { DemoWalletsAdded, WatchedWallet } from '../../../src-shared/ipc/watchlist-schemas'
import { makeTempDir } from '../../helpers/temp-dir'
import { FastForwardClock } from '../../helpers/virtual-clock'

// "Add demo wallets" added nothing and said nothing, and the active trader it promises was
// never offered (issue 13, item 4). Given a first run on demo data (the small demo wallets
// added by themselves), the button's channel adds the rest, the active trader included,
// and says what it added and what was already there.

async function call<T>(core: Core, channel: string, input?: unknown): Promise<T> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
  return envelope.result as T
}

describe('Add demo wallets adds the demo wallets it promises and says what it did', () => {
  const temp = makeTempDir()
  let core: Core
  let simulator: RunningSimulator | null = null
  const addressOf = (profile: Parameters<RunningSimulator['chain']['walletByProfile']>[0]) =>
    (simulator as unknown as RunningSimulator).chain.walletByProfile(profile).address

  beforeAll(async () => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      clock: new FastForwardClock(),
      isWatching: true,
      demo: { live: false, onStarted: (started) => (simulator = started) },
    })
  })
  afterAll(async () => {
    await core.close()
    temp.remove()
  })

  it('first run watches the small demo wallets, not the active trader', async () => {
    const wallets = await call<WatchedWallet[]>(core, 'watchlist:list')
    expect(wallets.map((w) => w.address)).toEqual(DEMO_PROFILES.map(addressOf))
    expect(wallets.map((w) => w.address)).not.toContain(addressOf('active-trader'))
  })

  it('lists every demo wallet the button can add, the active trader included', async () => {
    const addresses = await call<string[]>(core, 'demo:wallets')
    expect(addresses).toEqual(DEMO_WALLETS.map((w) => addressOf(w.profile)))
    expect(addresses).toContain(addressOf('active-trader'))
  })

  it('adds the active trader and names the demo wallets already there', async () => {
    const result = await call<DemoWalletsAdded>(core, 'demo:add-wallets')
    expect(result.added).toEqual([
      expect.objectContaining({
        address: addressOf('active-trader'),
        label: 'Demo: active-trader',
      }),
    ])
    expect(result.alreadyWatched.map((w) => w.address)).toEqual(DEMO_PROFILES.map(addressOf))
    const wallets = await call<WatchedWallet[]>(core, 'watchlist:list')
    expect(wallets).toHaveLength(DEMO_WALLETS.length)
  })

  it('a second press adds nothing and says every demo wallet is already watched', async () => {
    const result = await call<DemoWalletsAdded>(core, 'demo:add-wallets')
    expect(result.added).toEqual([])
    expect(result.alreadyWatched.map((w) => w.address).sort()).toEqual(
      DEMO_WALLETS.map((w) => addressOf(w.profile)).sort(),
    )
  })

  it('a demo wallet removed by hand comes back', async () => {
    await call(core, 'watchlist:remove', { address: addressOf('casual') })
    const result = await call<DemoWalletsAdded>(core, 'demo:add-wallets')
    expect(result.added.map((w) => w.address)).toEqual([addressOf('casual')])
  })

  it("with the person's own data there are no demo wallets", async () => {
    const own = makeTempDir()
    const ownCore = await createCore({
      dataDir: own.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
    })
    try {
      expect(await call<string[]>(ownCore, 'demo:wallets')).toEqual([])
    } finally {
      await ownCore.close()
      own.remove()
    }
  })
})
