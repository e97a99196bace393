import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { databasePath, demoDatabasePath } from '../../../src-main/app/data-dir'
import { DEMO_PROFILES } from '../../../src-main/app/demo-data'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

// Given a mirror synced from a real service (here: the simulator given with --service),
// when Heliograph then runs on demo data — the app, `status` — demo data goes to a mirror
// of its own and the person's mirror is byte-for-byte the same. Without a key, the own
// mirror (it holds a wallet) is what is shown, and syncing it waits for the key. Switching
// between the two is an explicit choice, and each keeps its own wallets.

const sha256 = (path: string): string =>
  createHash('sha256').update(readFileSync(path)).digest('hex')

function watchedIn(path: string): string[] {
  const db = new BetterSqlite3(path, { readonly: true })
  try {
    return (
      db.prepare('select address from wallets order by position').all() as { address: string }[]
    ).map((r) => r.address)
  } finally {
    db.close()
  }
}

async function call(core: Core, channel: string, input?: unknown): Promise<unknown> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
  return envelope.result
}

describe('demo data never enters the person’s own mirror', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let own: string
  let ownHash: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    own = sim.chain.walletByProfile('idle').address
    const service = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    expect((await cli([...service, 'watch', 'add', own, '--label', 'Mine'])).code).toBe(0)
    const synced = await cli([...service, 'sync', '--once'])
    expect(synced.code, synced.stderr).toBe(0)
    ownHash = sha256(databasePath(temp.dir))
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('the app on demo data runs in its own file, and the own mirror is unchanged', async () => {
    let demoSynced = 0
    const core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      isWatching: true,
      dataSource: 'demo',
      demo: { live: false },
    })
    try {
      expect(core.info.dataSource).toBe('demo')
      const settled = new Promise<void>((done) => {
        core.events.subscribe((event, payload) => {
          const state = (payload as { state?: string }).state
          if (event === 'sync:wallet-state' && state === 'up-to-date') demoSynced += 1
          if (demoSynced >= DEMO_PROFILES.length) done()
        })
      })
      await settled
      const wallets = (await call(core, 'watchlist:list')) as { address: string }[]
      expect(wallets).toHaveLength(DEMO_PROFILES.length)
      expect(wallets.map((w) => w.address)).not.toContain(own)
    } finally {
      await core.close()
    }
    expect(existsSync(demoDatabasePath(temp.dir))).toBe(true)
    expect(watchedIn(demoDatabasePath(temp.dir))).toHaveLength(DEMO_PROFILES.length)
    expect(sha256(databasePath(temp.dir))).toBe(ownHash)
  })

  it('CLI commands without a key leave the own mirror unchanged too', async () => {
    const base = ['--data-dir', temp.dir]
    // Syncing is the person's own data's: without a key it says so, and changes nothing.
    const sync = await cli([...base, 'sync', '--once'])
    expect(sync.code).toBe(1)
    expect(sync.stderr).toContain('No API key is set')
    const demo = await cli([...base, '--data-source', 'demo', 'status'])
    expect(demo.code, demo.stderr).toBe(0)
    expect(demo.stdout).toMatch(/Demo: /)
    expect(sha256(databasePath(temp.dir))).toBe(ownHash)
    expect(watchedIn(databasePath(temp.dir))).toEqual([own])
  })

  it('switching is explicit: a key chooses the own data, demo data is chosen again by name', async () => {
    const core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
    const switched: unknown[] = []
    core.events.subscribe((event, payload) => {
      if (event === 'app:data-source') switched.push(payload)
    })
    try {
      // No key and no choice made: the own mirror holds a wallet, so it is shown, waiting.
      expect(core.info.dataSource).toBe('service')
      expect(await call(core, 'app:info')).toMatchObject({ keyNotice: 'missing' })
      await call(core, 'settings:set-data-source', { source: 'demo' })
      expect(core.info.dataSource).toBe('demo')

      const withKey = await call(core, 'settings:set-api-key', { apiKey: 'a-real-key-1234' })
      expect(withKey).toMatchObject({ dataSource: 'service', apiKeyHint: '…1234' })
      expect(core.info.dataSource).toBe('service')
      const mine = (await call(core, 'watchlist:list')) as { address: string }[]
      expect(mine.map((w) => w.address)).toEqual([own])

      const demo = await call(core, 'settings:set-data-source', { source: 'demo' })
      expect(demo).toMatchObject({ dataSource: 'demo', apiKeyHint: '…1234' })
      const demoWallets = (await call(core, 'watchlist:list')) as { address: string }[]
      expect(demoWallets).toHaveLength(DEMO_PROFILES.length)
      expect(switched).toEqual([{ source: 'demo' }, { source: 'service' }, { source: 'demo' }])
    } finally {
      await core.close()
    }
    // The choice is remembered: the next start opens demo data although a key is stored.
    const again = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test' })
    try {
      expect(again.info.dataSource).toBe('demo')
    } finally {
      await again.close()
    }
  })
})
