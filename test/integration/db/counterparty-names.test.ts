import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchHistoryPage } from '../../../src-main/db/queries/history-queries'
import { fetchTransferPage } from '../../../src-main/db/queries/transfer-queries'
import { HistoryFilters, TransferFilters, type TransferRow } from '@shared/ipc/review-schemas'
import { generateHistoryMirror, type GeneratedMirror } from '../../helpers/history-mirror'
import { fullScans, openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

// Given a wallet whose counterparties the service named (some), the person watches (one,
// also named by the service) or the service could not name, when History and Transfers
// are read, then each address carries one name by one rule: the person's label, else the
// service's name, else none.

describe('counterparty names in the review queries', () => {
  let review: ReviewDb
  let mirror: GeneratedMirror
  const expected = new Map<string, string>()

  beforeAll(async () => {
    review = await openReviewDb()
    mirror = generateHistoryMirror(review.database.sqlite, {
      address: testAddress(2),
      count: 1_500,
      seed: 11,
      keepTruth: true,
    })
    const [named, labelled, none, unavailable] = mirror.counterparties
    const addName = review.database.sqlite.prepare(
      `insert into address_names (address, status, name, type, category, fetched_at_sec)
       values (?, ?, ?, 'exchange', 'Centralized Exchange', 0)`,
    )
    addName.run(named, 'named', 'Polaris Markets Hot Wallet')
    addName.run(labelled, 'named', 'Service name that loses')
    addName.run(none, 'none', null)
    // A stale name from a look-up that later failed is not shown.
    addName.run(unavailable, 'unavailable', 'Stale name')
    addName.run(mirror.address, 'named', 'pixelhoard.sol')
    review.database.sqlite
      .prepare('insert into wallets (address, label, position, added_at_sec) values (?, ?, 9, 0)')
      .run(labelled, 'My cold wallet')
    expected.set(named!, 'Polaris Markets Hot Wallet')
    expected.set(labelled!, 'My cold wallet')
  })
  afterAll(async () => review?.close())

  async function allTransfers(): Promise<TransferRow[]> {
    const rows: TransferRow[] = []
    let cursor = null
    do {
      const page = await fetchTransferPage(review.db, mirror.walletId, {
        order: 'newest',
        filters: TransferFilters.parse({}),
        cursor,
        limit: 200,
      })
      rows.push(...page.rows)
      cursor = page.nextCursor
    } while (cursor !== null)
    return rows
  }

  it('Transfers: a watched wallet’s label wins, then the service’s name; others have none', async () => {
    const rows = await allTransfers()
    expect(rows).toHaveLength(mirror.transfers.length)
    for (const r of rows) expect(r.counterpartyName).toBe(expected.get(r.counterparty) ?? null)
    // Each kind of counterparty occurs, so every branch of the rule was checked.
    const parties = new Set(rows.map((r) => r.counterparty))
    for (const address of mirror.counterparties.slice(0, 4)) expect(parties).toContain(address)
  })

  it('Transfers filtered by a named counterparty keep its name and its address', async () => {
    const named = mirror.counterparties[0]!
    const page = await fetchTransferPage(review.db, mirror.walletId, {
      order: 'oldest',
      filters: TransferFilters.parse({ counterparty: named }),
      cursor: null,
      limit: 50,
    })
    expect(page.rows.length).toBeGreaterThan(0)
    for (const r of page.rows) {
      expect(r.counterparty).toBe(named)
      expect(r.counterpartyName).toBe('Polaris Markets Hot Wallet')
    }
  })

  it('History: the fee payer carries the service’s name, and a label once the person gives one', async () => {
    const first = await fetchHistoryPage(review.db, mirror.walletId, {
      order: 'newest',
      filters: HistoryFilters.parse({}),
      cursor: null,
      limit: 100,
    })
    expect(first.rows.length).toBe(100)
    for (const r of first.rows) {
      expect(r.feePayer).toBe(mirror.address)
      expect(r.feePayerName).toBe('pixelhoard.sol')
    }
    review.database.sqlite
      .prepare('update wallets set label = ? where id = ?')
      .run('Collector', mirror.walletId)
    const relabelled = await fetchHistoryPage(review.db, mirror.walletId, {
      order: 'newest',
      filters: HistoryFilters.parse({}),
      cursor: null,
      limit: 10,
    })
    expect(relabelled.rows.map((r) => r.feePayerName)).toEqual(Array(10).fill('Collector'))
  })

  it('the names are looked up on their keys, never by scanning a table', async () => {
    review.queries.length = 0
    await allTransfers()
    await fetchHistoryPage(review.db, mirror.walletId, {
      order: 'newest',
      filters: HistoryFilters.parse({}),
      cursor: null,
      limit: 100,
    })
    const plans = review.queries.map((q) => review.planOf(q))
    expect(plans.length).toBeGreaterThan(0)
    for (const plan of plans) {
      expect(fullScans(plan)).toEqual([])
      expect(plan.filter((line) => /^SCAN (w|n)\b/.test(line))).toEqual([])
    }
    // The name lookups are in the plans: each a search on a unique key.
    const lookups = plans
      .flat()
      .filter((line) => /^(CORRELATED SCALAR SUBQUERY|SEARCH (w|n)\b)/.test(line))
    expect(
      lookups.some((line) => /^SEARCH n USING INDEX sqlite_autoindex_address_names/.test(line)),
    ).toBe(true)
    expect(lookups.some((line) => /^SEARCH w USING (COVERING )?INDEX/.test(line))).toBe(true)
  })
})
