import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli as cli } from '../../helpers/cli-in-process'
import { profileAddressOf, startSimulatorProcess } from '../../helpers/simulator-process'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { expectMirrorEqualsTruth } from '../sync/mirror-truth-assertions'

// Issue 46, "Done means": `npm run simulator -- --variance real` exists, and `sync --once`
// of its casual, nft-collector and failed-transactions wallets stores exactly their
// transactions, with no balance change stored under the mint "SOL".

const PROFILES = ['casual', 'nft-collector', 'failed-transactions']

describe('heliograph simulator --variance real, then sync --once', () => {
  const temp = makeTempDir()
  let sim: Awaited<ReturnType<typeof startSimulatorProcess>>
  const addresses = new Map<string, string>()
  const base = (): string[] => ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']

  beforeAll(async () => {
    sim = await startSimulatorProcess(['--variance', 'real'])
    for (const profile of PROFILES) {
      const address = await profileAddressOf(sim.url, profile)
      addresses.set(profile, address)
      const added = await cli([...base(), 'watch', 'add', address, '--label', profile])
      expect(added.code, added.stderr).toBe(0)
    }
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  // First, so that the ledger holds every credit the simulator counted.
  it('sync --once stores exactly each wallet’s transactions, none under the mint "SOL"', async () => {
    const run = await cli([...base(), 'sync', '--once'])
    expect(run.code, run.stderr).toBe(0)
    for (const profile of PROFILES) expect(run.stdout).toMatch(new RegExp(`^${profile}: ok `, 'm'))
    await readStoredMirror({ dataDir: temp.dir }, async (db) => {
      for (const address of addresses.values()) await expectMirrorEqualsTruth(db, sim.url, address)
      const underSol = await db
        .selectFrom('balance_changes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('mint', '=', 'SOL')
        .executeTakeFirstOrThrow()
      expect(Number(underSol.n)).toBe(0)
    })
  })

  it('what it read was the real variety: "SOL" mints and last pages without a cursor', async () => {
    let solNamed = 0
    let endsWithoutCursor = 0
    for (const address of addresses.values()) {
      let before: string | null = null
      do {
        const query: string = before === null ? '' : `&before=${before}`
        const page = (await (
          await fetch(`${sim.url}/v1/wallet/${address}/history?limit=100${query}`, {
            headers: { 'x-api-key': 'demo' },
          })
        ).json()) as { data: unknown[]; pagination: { hasMore: boolean; nextCursor?: string } }
        solNamed += (JSON.stringify(page.data).match(/"mint":"SOL"/g) ?? []).length
        if (!page.pagination.hasMore && !('nextCursor' in page.pagination)) endsWithoutCursor += 1
        before = page.pagination.hasMore ? (page.pagination.nextCursor ?? null) : null
      } while (before !== null)
    }
    expect(solNamed).toBeGreaterThan(0)
    expect(endsWithoutCursor).toBeGreaterThan(0)
  })
})
