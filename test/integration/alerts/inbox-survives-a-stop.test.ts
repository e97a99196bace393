import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { AlertRuleInput } from '@shared/domain/alert-rules'
import { AlertEvaluator } from '../../../src-main/alerts/alert-evaluator'
import type { Mirror } from '../../../src-main/db/mirror'
import { openPostgresMirror } from '../../../src-main/db/postgres/mirror'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// A page of new transactions is recorded for the rules in its own transaction; a process
// that stops before the rules ran leaves it in the inbox, and the next process's evaluator
// fires for it — once, however often it runs.

describe.each(ENGINES)('the alert inbox across a stop, on %s', (engine: TestEngine) => {
  const temp = makeTempDir()
  let database: TestDatabase | null = null
  afterAll(async () => {
    await database?.drop()
    temp.remove()
  })

  const open = async (): Promise<Mirror> => {
    if (engine === 'sqlite') return openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
    database ??= await createTestDatabase()
    return openPostgresMirror(database.url)
  }

  it('fires after the restart for what was written before it, and only once', async () => {
    const address = testAddress(77)
    const signature = `stop${'1'.repeat(84)}`
    const first = await open()
    await first.watchlist.add({ address, label: 'Vault' }, 1_800_000_000)
    await first.alertRules.add(AlertRuleInput.parse({ trigger: 'incoming' }), 1_800_000_000)
    const walletId = (await first.writer.walletId(address)) as number
    await first.writer.applyHistoryPage(
      walletId,
      [
        {
          signature,
          slot: 5,
          fee: 0.000005,
          feePayer: testAddress(78),
          balanceChanges: [{ mint: NATIVE_SOL_MINT, amount: 2.5, decimals: 9 }],
          timestamp: 1_800_000_000,
          error: null,
        },
      ],
      { forAlertsAtMs: 1_800_000_000_000 },
    )
    // The process stops here: the page is committed, the rules never ran.
    await first.close()

    const second = await open()
    try {
      expect(await second.alerts.history({ limit: 10 })).toEqual([])
      const evaluator = new AlertEvaluator({ mirror: second })
      await evaluator.evaluatePending()
      await evaluator.evaluatePending()
      const alerts = await second.alerts.history({ limit: 10 })
      expect(alerts.map((a) => [a.signature, a.text])).toEqual([
        [signature, 'Vault received 2.5 SOL'],
      ])
      expect(await second.alertFacts.pendingInbox(10)).toEqual([])
    } finally {
      await second.close()
    }
  })
})

// Two sync workers on one PostgreSQL mirror each evaluate after their own wallets, so both
// read the same inbox: each item is consumed by one of them, and what it caused is written
// once — a burst inside a rule's cool-down gathers each match once, not once per worker.
describe('two evaluators sharing one PostgreSQL mirror', () => {
  let database: TestDatabase | null = null
  afterAll(async () => {
    await database?.drop()
  })

  it.skipIf(!ENGINES.includes('postgres'))(
    'consume each inbox item once and count each match once',
    async () => {
      database = await createTestDatabase()
      const a = await openPostgresMirror(database.url)
      const b = await openPostgresMirror(database.url)
      try {
        const address = testAddress(91)
        await a.watchlist.add({ address, label: 'Shared' }, 1_800_000_000)
        await a.alertRules.add(
          AlertRuleInput.parse({ trigger: 'incoming', cooldownSec: 3600 }),
          1_800_000_000,
        )
        const walletId = (await a.writer.walletId(address)) as number
        const receive = (n: number) => ({
          signature: `shared${String(n).padStart(82, '1')}`,
          slot: n,
          fee: 0.000005,
          feePayer: testAddress(92),
          balanceChanges: [{ mint: NATIVE_SOL_MINT, amount: n, decimals: 9 }],
          timestamp: 1_800_000_000 + n,
          error: null,
        })
        const first = new AlertEvaluator({ mirror: a })
        const second = new AlertEvaluator({ mirror: b })
        // The first receipt fires; the next five fall inside the cool-down and gather.
        await a.writer.applyHistoryPage(walletId, [receive(1)], { forAlertsAtMs: 1 })
        await first.evaluatePending()
        for (let n = 2; n <= 6; n++)
          await a.writer.applyHistoryPage(walletId, [receive(n)], { forAlertsAtMs: n })
        await Promise.all([
          first.evaluatePending(),
          second.evaluatePending(),
          first.evaluatePending(),
          second.evaluatePending(),
        ])
        const alerts = await a.alerts.history({ limit: 10 })
        expect(alerts.map((x) => x.matchCount).sort()).toEqual([1, 5])
        expect(await a.alertFacts.pendingInbox(10)).toEqual([])
      } finally {
        await a.close()
        await b.close()
      }
    },
  )
})
