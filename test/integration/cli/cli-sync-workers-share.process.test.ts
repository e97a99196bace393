import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeSettings } from '../../../src-main/app/app-settings'
import { openPostgresMirror } from '../../../src-main/db/postgres/mirror'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli, startCli } from '../../helpers/cli-process'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'
import { expectWalletEqualsTruth } from '../sync/mirror-truth-assertions'

// Issue 17, "Done means": two sync workers on one PostgreSQL mirror, 20 wallets: together
// they spend the same credits as one worker (± one page per wallet), no row is duplicated,
// and killing one mid-sync (SIGKILL) leaves the other to finish with the mirror equal to
// the truth. Each run has its own simulator of the same seed (the same chain, its own
// credit counter) and its own database. The 20 wallets are whole histories of modest size
// from the simulator's `hundred` population, so the truth is every item they hold.

const SEED = 31
/** How many wallets of each profile the watchlist takes from the population. */
const WATCHED: Record<string, number> = {
  idle: 5,
  casual: 8,
  'nft-collector': 3,
  'failed-transactions': 4,
}
/** The most one call costs (a history or DAS page): the "one page" of the tolerance. */
const MOST_CREDITS_PER_PAGE = 100

interface Run {
  sim: RunningSimulator
  database: TestDatabase
  args: string[]
  addresses: string[]
}

describe('sync workers sharing one PostgreSQL mirror (20 wallets)', () => {
  const temp = makeTempDir()
  const runs: Run[] = []

  /** A simulator, a database holding the 20-wallet watchlist, unpaced; the CLI's arguments. */
  const prepare = async (name: string): Promise<Run> => {
    const sim = await startSimulator({
      seed: SEED,
      population: 'hundred',
      clock: { mode: 'manual' },
    })
    const database = await createTestDatabase()
    const mirror = await openPostgresMirror(database.url)
    const addresses = Object.entries(WATCHED).flatMap(([profile, count]) =>
      sim.chain.wallets
        .filter((w) => w.profile.id === profile)
        .slice(0, count)
        .map((w) => w.address),
    )
    expect(addresses).toHaveLength(20)
    try {
      for (const [i, address] of addresses.entries())
        await mirror.watchlist.add({ address, label: `w${i}` }, 1_700_000_000)
      // The plan's pacing is beside the point here: both runs go as fast as they can.
      await writeSettings(mirror.settings, { plan: 'off' }, 1_700_000_000)
    } finally {
      await mirror.close()
    }
    const args = [
      '--data-dir',
      `${temp.dir}/${name}`,
      '--database',
      database.url,
      '--service',
      sim.url,
      '--api-key',
      'demo',
    ]
    const run = { sim, database, args, addresses }
    runs.push(run)
    return run
  }

  afterAll(async () => {
    for (const run of runs) {
      await run.sim.close()
      await run.database.drop()
    }
    temp.remove()
  })

  let alone: Run
  let shared: Run
  let survivorExit: number | null
  let survivorOut: string
  /** Wallets each worker reported synced (the victim's until it was killed). */
  let survivorSynced: number
  let victimSynced: number

  beforeAll(async () => {
    // One worker alone: the reference.
    alone = await prepare('alone')
    const single = await runCli([...alone.args, 'sync', '--once', '--quiet'])
    expect(single.code, single.stderr).toBe(0)

    // Two workers on one mirror; the second is killed once it has synced a wallet. Leases of
    // 8 s (renewed every 2.7 s): short enough that the survivor takes the killed worker's
    // wallets soon, long enough that a renewal late on a busy 2-core machine keeps its own.
    shared = await prepare('shared')
    const flags = ['sync', '--once', '--quiet', '--lease-seconds', '8']
    const survivor = startCli([
      ...shared.args.map((a) => a.replace('/shared', '/shared-a')),
      ...flags,
    ])
    const victim = startCli([
      ...shared.args.map((a) => a.replace('/shared', '/shared-b')),
      ...flags,
    ])
    await victim.waitFor(({ stdout }) => /: ok \(/.test(stdout), 120_000)
    victim.child.kill('SIGKILL')
    await victim.exited
    victimSynced = (victim.stdout.match(/: ok \(/g) ?? []).length
    survivorExit = await survivor.exited
    survivorOut = survivor.stdout + survivor.stderr
    survivorSynced = (survivor.stdout.match(/: ok \(/g) ?? []).length
  }, 300_000)

  it('the survivor finishes every wallet, the killed worker’s too, and exits 0', () => {
    expect(survivorExit, survivorOut).toBe(0)
    // The work was shared (the victim synced some) and the survivor accounts for every
    // wallet: each one it synced itself or found up to date by the other worker. (Counting
    // the victim's printed lines instead depends on when the kill lands: a wallet it
    // finished but had not printed yet went missing from that count.)
    expect(victimSynced).toBeGreaterThanOrEqual(1)
    const elsewhere = Number(/(\d+) wallets? synced by another worker/.exec(survivorOut)?.[1] ?? 0)
    expect(survivorSynced + elsewhere).toBe(20)
  })

  it('the mirror equals the truth for all 20 wallets', { timeout: 120_000 }, async () => {
    const mirror = await openPostgresMirror(shared.database.url)
    try {
      for (const address of shared.addresses)
        await expectWalletEqualsTruth(mirror.database.db, shared.sim.url, address)
    } finally {
      await mirror.close()
    }
  })

  it('no row is stored twice: one per natural key, and one holdings snapshot per wallet sync', async () => {
    const mirror = await openPostgresMirror(shared.database.url)
    const db = mirror.database.db
    try {
      const duplicates = async (table: 'transactions' | 'transfers', key: string) =>
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .groupBy(key.split(',') as never)
            .having((eb) => eb.fn.countAll(), '>', 1)
            .execute()
        ).length
      expect(await duplicates('transactions', 'wallet_id,signature')).toBe(0)
      expect(
        await duplicates('transfers', 'wallet_id,signature,mint,direction,counterparty,amount_raw'),
      ).toBe(0)
      const changes = await db
        .selectFrom('balance_changes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .groupBy(['transaction_id', 'ordinal'])
        .having((eb) => eb.fn.countAll(), '>', 1)
        .execute()
      expect(changes).toEqual([])
    } finally {
      await mirror.close()
    }
  })

  it('together they spend what one worker spends, within one page per wallet', async () => {
    const one = await simulatorCredits(alone.sim.url)
    const two = await simulatorCredits(shared.sim.url)
    expect(one).toBeGreaterThan(0)
    expect(Math.abs(two - one), `one worker ${one}, two workers ${two}`).toBeLessThanOrEqual(
      shared.addresses.length * MOST_CREDITS_PER_PAGE,
    )
  })
})
