import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { HistoryEntry, TransferEntry, WalletBalance } from '@shared/api/wallet-rest'
import { AlertRuleInput, type AlertRuleInput as RuleInput } from '@shared/domain/alert-rules'
import { AlertEvaluator } from '../../../src-main/alerts/alert-evaluator'
import type { Kysely } from 'kysely'
import type { Mirror } from '../../../src-main/db/mirror'
import type { Database } from '../../../src-main/db/schema'
import { openPostgresMirror } from '../../../src-main/db/postgres/mirror'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { VirtualClock } from '../../helpers/virtual-clock'
import { createTestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Each trigger against transactions and snapshots written through the real writer, on both
// engines: what fires, what does not, and that nothing fires twice or for the backfill.

const USDC = testAddress(9001)
const BONK = testAddress(9002)
const NFT = testAddress(9003)
const STRANGER = testAddress(9004)
const FRIEND = testAddress(9005)
const DAY = 86_400
const T0 = 1_790_000_000

let sequence = 0
function tx(
  wallet: string,
  timeSec: number,
  changes: [string, number, number][],
  extra: Partial<HistoryEntry> = {},
): HistoryEntry {
  sequence += 1
  return {
    signature: `sig${String(sequence).padStart(6, '0')}${'x'.repeat(70)}`,
    slot: 1_000 + sequence,
    fee: 0.000005,
    feePayer: wallet,
    balanceChanges: changes.map(([mint, amount, decimals]) => ({ mint, amount, decimals })),
    timestamp: timeSec,
    error: null,
    ...extra,
  }
}

function transfer(
  entry: HistoryEntry,
  counterparty: string,
  direction: 'in' | 'out',
): TransferEntry {
  const [mint, amount, decimals] = [
    entry.balanceChanges[0]?.mint ?? USDC,
    Math.abs(entry.balanceChanges[0]?.amount ?? 1),
    entry.balanceChanges[0]?.decimals ?? 6,
  ]
  return {
    signature: entry.signature,
    timestamp: entry.timestamp ?? 0,
    direction,
    counterparty,
    mint,
    amount,
    amountRaw: String(Math.round(amount * 10 ** decimals)),
    decimals,
    symbol: null,
  }
}

function balance(mint: string, amount: number, priceUsd: number): WalletBalance {
  return {
    mint,
    symbol: mint === USDC ? 'USDC' : mint === NATIVE_SOL_MINT ? 'SOL' : 'BONK',
    name: '',
    balance: amount,
    decimals: 6,
    pricePerToken: priceUsd,
    usdValue: amount * priceUsd,
    logoUri: '',
    tokenProgram: 'spl-token',
  }
}

describe.each(ENGINES)('alert triggers on %s', (engine: TestEngine) => {
  const temp = makeTempDir()
  let mirror: Mirror & { database: { db: Kysely<Database> } }
  let dropDatabase: () => Promise<void> = async () => {}
  const clock = new VirtualClock(T0 * 1000)
  let evaluator: AlertEvaluator
  const a = testAddress(101)
  const b = testAddress(102)
  const ids = new Map<string, number>()

  const write = async (wallet: string, entries: HistoryEntry[], isNews = true) => {
    await mirror.writer.applyHistoryPage(ids.get(wallet) as number, entries, {
      ...(isNews ? { forAlertsAtMs: clock.nowMs() } : {}),
    })
  }
  const addRule = async (rule: RuleInput) =>
    (await mirror.alertRules.add(AlertRuleInput.parse(rule), T0)).id
  const firedBy = async (ruleId: number) =>
    (await mirror.alerts.history({ limit: 500 })).filter((x) => x.rule?.id === ruleId)

  beforeAll(async () => {
    if (engine === 'postgres') {
      const database = await createTestDatabase()
      mirror = await openPostgresMirror(database.url)
      dropDatabase = database.drop
    } else {
      mirror = await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
    }
    for (const [address, label] of [
      [a, 'Treasury'],
      [b, 'Hot'],
    ] as const) {
      await mirror.watchlist.add({ address, label }, T0)
      ids.set(address, (await mirror.writer.walletId(address)) as number)
    }
    evaluator = new AlertEvaluator({ mirror, clock })
    // The past: written as a backfill (no news), months ago.
    const past = [
      tx(a, T0 - 120 * DAY, [[USDC, 500, 6]]),
      tx(b, T0 - 2 * DAY, [[NATIVE_SOL_MINT, 1, 9]]),
    ]
    await write(a, [past[0] as HistoryEntry], false)
    await write(b, [past[1] as HistoryEntry], false)
    await mirror.writer.applyTransfersPage(
      ids.get(a) as number,
      [transfer(past[0] as HistoryEntry, FRIEND, 'in')],
      {},
    )
  })
  afterAll(async () => {
    await mirror.close()
    await dropDatabase()
    temp.remove()
  })

  it('fires each trigger on what it names and nothing else, once', async () => {
    const rules = {
      activityA: await addRule({ trigger: 'activity', scope: { wallets: [a] } }),
      outgoingBig: await addRule({
        trigger: 'outgoing',
        options: { token: 'usdc', min: 10_000 },
      }),
      incomingAny: await addRule({ trigger: 'incoming', scope: { wallets: [b] } }),
      newToken: await addRule({ trigger: 'new-token' }),
      nftIn: await addRule({ trigger: 'nft-in' }),
      swap: await addRule({ trigger: 'type', options: { types: ['SWAP'] } }),
      failed: await addRule({ trigger: 'failed' }),
      wakes: await addRule({ trigger: 'wakes', options: { idleDays: 90 } }),
      stranger: await addRule({ trigger: 'new-counterparty', scope: { wallets: [a] } }),
      cluster: await addRule({
        trigger: 'cluster',
        options: { token: BONK, count: 2, windowSec: 3600 },
      }),
    }
    // The mint cache names USDC, so `--token usdc` finds it by symbol.
    await mirror.writer.applyBalancesSnapshot(
      ids.get(a) as number,
      T0,
      [balance(USDC, 500, 1)],
      [],
      {},
    )

    const wake = tx(a, T0, [[USDC, -20_000, 6]]) // outgoing ≥ 10,000 USDC, after 120 idle days
    const small = tx(a, T0 + 10, [[USDC, -5, 6]]) // outgoing, under the minimum
    const swapB = tx(b, T0 + 20, [
      [NATIVE_SOL_MINT, -1.000005, 9],
      [BONK, 1_000, 5],
    ]) // a swap into a token b never held; b's first BONK
    const bonkA = tx(a, T0 + 30, [[BONK, 50, 5]]) // a receives BONK too: cluster of 2
    const nftB = tx(b, T0 + 40, [[NFT, 1, 0]])
    const failedA = tx(a, T0 + 50, [[NATIVE_SOL_MINT, -0.000005, 9]], {
      error: 'custom program error',
    })
    await write(a, [wake, small])
    await mirror.writer.applyTransfersPage(
      ids.get(a) as number,
      [transfer(wake, STRANGER, 'out'), transfer(small, FRIEND, 'out')],
      {},
    )
    await write(b, [swapB, nftB])
    await write(a, [bonkA, failedA])
    await evaluator.evaluatePending()

    const sigs = async (rule: number) => (await firedBy(rule)).map((x) => x.signature).sort()
    const sorted = (...entries: HistoryEntry[]) => entries.map((e) => e.signature).sort()
    expect(await sigs(rules.activityA)).toEqual(sorted(wake, small, bonkA, failedA))
    expect(await sigs(rules.outgoingBig)).toEqual(sorted(wake))
    expect(await sigs(rules.incomingAny)).toEqual(sorted(swapB, nftB))
    expect(await sigs(rules.newToken)).toEqual(sorted(swapB, bonkA))
    expect(await sigs(rules.nftIn)).toEqual(sorted(nftB))
    expect(await sigs(rules.swap)).toEqual(sorted(swapB))
    expect(await sigs(rules.failed)).toEqual(sorted(failedA))
    expect(await sigs(rules.wakes)).toEqual(sorted(wake))
    expect(await sigs(rules.stranger)).toEqual(sorted(wake))
    const cluster = await firedBy(rules.cluster)
    expect(cluster).toHaveLength(1)
    // Named by label; the alert is the receipt that completed the cluster (a's, after b's).
    expect(cluster[0]?.text).toMatch(
      /^2 watched wallets received .{4}….{4} within 1 h: Hot and Treasury$/,
    )
    expect(cluster[0]).toMatchObject({ wallet: a, signature: bonkA.signature })

    const [outgoing] = await firedBy(rules.outgoingBig)
    expect(outgoing?.text).toMatch(/Treasury sent 20,000 USDC to /)
    expect(outgoing?.amounts).toEqual([
      { mint: USDC, symbol: 'USDC', amount: '-20000', usd: 20_000 },
    ])

    // Evaluating again, or writing the same page again, fires nothing more.
    const before = (await mirror.alerts.history({ limit: 500 })).length
    await write(a, [wake, small])
    await evaluator.evaluatePending()
    expect((await mirror.alerts.history({ limit: 500 })).length).toBe(before)
  })

  it('fires a balance rule when the holding crosses its threshold, not while it stays', async () => {
    const rule = await addRule({ trigger: 'balance-below', options: { token: 'USDC', max: 100 } })
    const snap = async (amount: number) => {
      await clock.advance(60_000)
      await mirror.writer.applyBalancesSnapshot(
        ids.get(a) as number,
        clock.nowMs() / 1000,
        [balance(USDC, amount, 1)],
        [],
        { forAlertsAtMs: clock.nowMs() },
      )
      await evaluator.evaluatePending()
    }
    await snap(500)
    expect(await firedBy(rule)).toHaveLength(0)
    await snap(40)
    await snap(30)
    const fired = await firedBy(rule)
    expect(fired).toHaveLength(1)
    expect(fired[0]?.text).toMatch(/Treasury's USDC balance is 40 USDC, below 100/)
    await snap(400)
    await snap(10)
    expect(await firedBy(rule)).toHaveLength(2)
  })

  it('gathers a burst within the cool-down into one alert due when it ends', async () => {
    const rule = await addRule({ trigger: 'activity', scope: { wallets: [b] }, cooldownSec: 600 })
    const firstSentSec = clock.nowMs() / 1000 + 30 // the first match fires at once
    const burst: HistoryEntry[] = []
    for (let i = 0; i < 4; i++) {
      await clock.advance(30_000)
      const entry = tx(b, clock.nowMs() / 1000, [[NATIVE_SOL_MINT, 0.5, 9]], { feePayer: FRIEND })
      burst.push(entry)
      await write(b, [entry])
      await evaluator.evaluatePending()
    }
    const sent = async () =>
      (
        await mirror.alerts.history({ limit: 500 }, { reader: '', nowSec: clock.nowMs() / 1000 })
      ).filter((x) => x.rule?.id === rule)
    // The other three gather into one alert that fires when the cool-down ends: not before.
    expect((await sent()).map((x) => x.matchCount)).toEqual([1])
    await clock.advance((firstSentSec + 600) * 1000 - clock.nowMs())
    const fired = await sent()
    expect(fired.map((x) => x.matchCount)).toEqual([3, 1])
    // It says one match, the latest (its text, amounts and signature), and fires when sent.
    const [gathered, first] = fired
    expect(gathered).toMatchObject({ text: 'Hot received 0.5 SOL', signature: burst[3]?.signature })
    expect(gathered?.amounts).toEqual([
      { mint: NATIVE_SOL_MINT, symbol: 'SOL', amount: '0.5', usd: null },
    ])
    expect(gathered?.firedAt).toBe(new Date((firstSentSec + 600) * 1000).toISOString())
    expect(first?.firedAt).toBe(new Date(firstSentSec * 1000).toISOString())
  })

  it('muted rules fire nothing, and a rule sees only wallets of its tag', async () => {
    const tagged = await addRule({ trigger: 'activity', scope: { tags: ['Desk'] } })
    const muted = await addRule({ trigger: 'activity' })
    await mirror.alertRules.setMuted(muted, true)
    // The tag store is the feed's; its table is the mirror's.
    await mirror.database.db
      .insertInto('wallet_tags')
      .values({ wallet_id: ids.get(b) as number, tag: 'desk' })
      .execute()
    await write(a, [tx(a, T0 + 999, [[USDC, 1, 6]])])
    await write(b, [tx(b, T0 + 999, [[USDC, 1, 6]])])
    await evaluator.evaluatePending()
    expect((await firedBy(tagged)).map((x) => x.wallet)).toEqual([b])
    expect(await firedBy(muted)).toEqual([])
  })
})
