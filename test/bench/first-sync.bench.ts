import { PROFILE_IDS, type ProfileId } from '../../src-main/simulator/chain/wallet-profiles'
import { startSimulator } from '../../src-main/simulator/simulator-server'
import { runCli } from '../helpers/cli-in-process'
import { simulatorCredits } from '../helpers/sim-truth'
import { readStoredMirror } from '../helpers/stored-mirror'
import { makeTempDir } from '../helpers/temp-dir'

// Issue 48: what a new user's first sync spends, with the default depth (the newest 1,000
// transactions and their transfers, holdings, names). Every profile wallet of the default
// population is added with `watch add` and synced once with `sync --once`, each in turn,
// through the CLI against the simulator over HTTP; the credits are the simulator's own count.
// The floor is what the stored data costs at the least: the history at 1 credit per
// transaction (100 a page of 100) plus the transfers at 1 per transfer.
// Run: npm run bench -- first-sync

const n = (value: number): string => Math.round(value).toLocaleString('en-US')

/** One wallet's first sync: what its look and its sync cost, and what it stored. */
export interface FirstSyncRow {
  profile: ProfileId
  lookCredits: number
  syncCredits: number
  transactions: number
  transfers: number
}

/** The one line the README quotes. */
export function firstSyncLine(rows: readonly FirstSyncRow[]): string {
  const transactions = rows.reduce((sum, r) => sum + r.transactions, 0)
  const credits = rows.reduce((sum, r) => sum + r.syncCredits, 0)
  const whale = rows.find((r) => r.profile === 'whale')
  const per = transactions === 0 ? 0 : credits / transactions
  return (
    `first-sync: ${rows.length} wallets, ${n(transactions)} transactions stored, ${n(credits)} credits ` +
    `(${per.toFixed(2)} per transaction); whale: ${n(whale?.syncCredits ?? 0)} credits (newest ${n(whale?.transactions ?? 0)})`
  )
}

/** Transactions and transfers the mirror holds for one wallet. */
async function storedOf(
  dataDir: string,
  address: string,
): Promise<{ transactions: number; transfers: number }> {
  return readStoredMirror({ dataDir }, async (db) => {
    const wallet = await db
      .selectFrom('wallets')
      .select('id')
      .where('address', '=', address)
      .executeTakeFirstOrThrow()
    const count = async (table: 'transactions' | 'transfers'): Promise<number> =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('wallet_id', '=', wallet.id)
            .executeTakeFirstOrThrow()
        ).n,
      )
    return { transactions: await count('transactions'), transfers: await count('transfers') }
  })
}

export async function runFirstSyncBench(): Promise<{ rows: FirstSyncRow[] }> {
  const sim = await startSimulator({ seed: 48, clock: { mode: 'manual' } })
  const temp = makeTempDir('heliograph-bench-first-sync-')
  const base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
  const rows: FirstSyncRow[] = []
  try {
    for (const profile of PROFILE_IDS) {
      const { address } = sim.chain.walletByProfile(profile)
      const before = await simulatorCredits(sim.url)
      const added = await runCli([...base, 'watch', 'add', address, '--label', profile])
      if (added.code !== 0) throw new Error(`watch add ${profile}: ${added.stderr}`)
      const looked = await simulatorCredits(sim.url)
      // --yes: the bench measures the default depth, not the ask.
      const synced = await runCli([
        ...base,
        'sync',
        '--once',
        '--quiet',
        '--yes',
        '--wallet',
        address,
      ])
      if (synced.code !== 0) throw new Error(`sync --once ${profile}: ${synced.stderr}`)
      const after = await simulatorCredits(sim.url)
      const row = {
        profile,
        lookCredits: looked - before,
        syncCredits: after - looked,
        ...(await storedOf(temp.dir, address)),
      }
      rows.push(row)
      const floor = row.transactions + row.transfers
      process.stdout.write(
        `  ${profile.padEnd(20)} ${n(row.transactions).padStart(6)} transactions ${n(row.transfers).padStart(6)} transfers: ` +
          `first sync ${n(row.syncCredits).padStart(6)} credits (floor ${n(floor)}); watch add's estimate ${n(row.lookCredits)}\n`,
      )
    }
  } finally {
    await sim.close()
    temp.remove()
  }
  const floor = rows.reduce((sum, r) => sum + r.transactions + r.transfers, 0)
  const looks = rows.reduce((sum, r) => sum + r.lookCredits, 0)
  process.stdout.write(
    `floor: ${n(floor)} credits (history at 1 per transaction, transfers at 1 per transfer); ` +
      `the estimates of watch add: ${n(looks)} credits\n${firstSyncLine(rows)}\n`,
  )
  return { rows }
}
