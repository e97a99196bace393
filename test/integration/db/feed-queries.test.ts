import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'
import { FeedFilters, type FeedCursor, type FeedFiltersInput } from '@shared/ipc/feed-schemas'
import type { Database } from '../../../src-main/db/schema'
import { fetchFeedPage, type FeedQueryRow } from '../../../src-main/db/queries/feed-queries'
import { transactionDirections } from '../../../src-main/db/ingest/transaction-directions'
import type { SqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { openEngineMirror } from '../../helpers/engine-mirror'
import { ENGINES } from '../../helpers/sync-fixture'
import { testAddress } from '../../helpers/wallets'

// Given a mirror of four watched wallets (two tagged "desk", one "treasury") whose
// transactions share slots and were written out of slot order — transfers, swaps, NFT
// sales, fee-only and failed ones, rows from before types were derived — when the feed
// pages through it, then every page is the brute-force answer in (slot, id) order, pages
// join without gaps or repeats, each filter keeps exactly the rows it says, and the rows
// above the last-viewed mark are counted and marked unread — on both engines.

const wallets = [testAddress(1), testAddress(2), testAddress(3), testAddress(4)]
const USDC = testAddress(20)
const USDC_OTHER = testAddress(21) // a second mint calling itself "usdc"
const BONK = testAddress(22) // no price known
const NFT = testAddress(23)
const FEE = 0.000005
const PRICES: Record<string, number | null> = {
  [NATIVE_SOL_MINT]: 150,
  [USDC]: 1,
  [USDC_OTHER]: 1,
  [BONK]: null,
  [NFT]: null,
}

interface Change {
  mint: string
  amount: number
  decimals: number
}
interface Truth {
  id: number
  walletIndex: number
  slot: number
  kind: string | null
  feePayerIsWallet: boolean
  changes: Change[]
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SHAPES = [
  'in-usdc',
  'in-bonk',
  'out-sol',
  'swap',
  'fee-only',
  'nft-sale',
  'old',
  'failed',
  'in-usdc-other',
] as const

function changesOf(
  shape: (typeof SHAPES)[number],
  size: number,
): { changes: Change[]; kind: string | null; payer: boolean } {
  const sol = (amount: number): Change => ({ mint: NATIVE_SOL_MINT, amount, decimals: 9 })
  switch (shape) {
    case 'in-usdc':
      return {
        changes: [{ mint: USDC, amount: size * 100, decimals: 6 }],
        kind: 'TRANSFER',
        payer: false,
      }
    case 'in-usdc-other':
      return {
        changes: [{ mint: USDC_OTHER, amount: size * 3, decimals: 6 }],
        kind: 'TRANSFER',
        payer: false,
      }
    case 'in-bonk':
      return {
        changes: [{ mint: BONK, amount: size * 1_000_000, decimals: 5 }],
        kind: 'TRANSFER',
        payer: false,
      }
    case 'out-sol':
      return { changes: [sol(-(size + FEE))], kind: 'TRANSFER', payer: true }
    case 'swap':
      return {
        changes: [sol(-(size / 2 + FEE)), { mint: USDC, amount: size * 75, decimals: 6 }],
        kind: 'SWAP',
        payer: true,
      }
    case 'fee-only':
      return { changes: [sol(-FEE)], kind: 'UNKNOWN', payer: true }
    case 'nft-sale':
      return {
        changes: [{ mint: NFT, amount: -1, decimals: 0 }, sol(size * 4 - FEE)],
        kind: 'NFT_SALE',
        payer: true,
      }
    case 'old':
      return {
        changes: [{ mint: USDC, amount: -size * 10, decimals: 6 }],
        kind: null,
        payer: false,
      }
    case 'failed':
      return { changes: [sol(-FEE)], kind: 'UNKNOWN', payer: true }
  }
}

async function fill(db: Kysely<Database>): Promise<Truth[]> {
  const walletIds: number[] = []
  for (const [i, address] of wallets.entries()) {
    const row = await db
      .insertInto('wallets')
      .values({ address, label: i === 0 ? 'Treasury' : null, position: i, added_at_sec: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    walletIds.push(row.id)
  }
  await db
    .insertInto('wallet_tags')
    .values([
      { wallet_id: walletIds[0]!, tag: 'treasury' },
      { wallet_id: walletIds[1]!, tag: 'desk' },
      { wallet_id: walletIds[2]!, tag: 'desk' },
    ])
    .execute()
  await db
    .insertInto('mints')
    .values(
      [
        [NATIVE_SOL_MINT, 'SOL', 9],
        [USDC, 'USDC', 6],
        [USDC_OTHER, 'usdc', 6],
        [BONK, 'BONK', 5],
        [NFT, 'APE', 0],
      ].map(([mint, symbol, decimals]) => ({
        mint: mint as string,
        symbol: symbol as string,
        name: null,
        decimals: decimals as number,
        logo_uri: null,
        token_program: null,
        price_usd: PRICES[mint as string] ?? null,
        updated_at_sec: 0,
      })),
    )
    .execute()
  await db
    .insertInto('address_names')
    .values({
      address: testAddress(40),
      status: 'named',
      name: 'sunny.sol',
      type: 'wallet',
      category: 'Wallet',
      domain_names_json: '[]',
      fetched_at_sec: 0,
    })
    .execute()
  const rand = random(30)
  const truths: Truth[] = []
  // Wallet 3 is small; wallet 0 is the busiest. Slots collide across wallets.
  const counts = [90, 50, 40, 6]
  const plan = counts.flatMap((count, walletIndex) =>
    Array.from({ length: count }, (_, n) => ({ walletIndex, n })),
  )
  plan.sort(() => rand() - 0.5) // written out of slot order, as backfill and sync interleave
  for (const { walletIndex, n } of plan) {
    const shape = SHAPES[Math.floor(rand() * SHAPES.length)]!
    const size = 1 + Math.floor(rand() * 40)
    const { changes, kind, payer } = changesOf(shape, size)
    const slot = 1_000 + Math.floor(rand() * 120)
    const address = wallets[walletIndex]!
    const tx = await db
      .insertInto('transactions')
      .values({
        wallet_id: walletIds[walletIndex]!,
        signature: `sig-${walletIndex}-${n}`,
        slot,
        block_time_sec: 1_700_000_000 + slot,
        fee: FEE,
        fee_text: decimalText(FEE),
        fee_payer: payer ? address : testAddress(99),
        error: shape === 'failed' ? 'InstructionError' : null,
        is_failed: shape === 'failed' ? 1 : 0,
        change_count: changes.length,
        kind,
        ...transactionDirections(
          { fee: FEE, feePayer: payer ? address : testAddress(99), balanceChanges: changes },
          address,
        ),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('balance_changes')
      .values(
        changes.map((c, ordinal) => ({
          transaction_id: tx.id,
          wallet_id: walletIds[walletIndex]!,
          ordinal,
          mint: c.mint,
          amount: c.amount,
          amount_text: decimalText(c.amount),
          amount_raw: rawFromDecimalText(decimalText(c.amount), c.decimals),
          decimals: c.decimals,
          block_time_sec: 1_700_000_000 + slot,
          slot,
        })),
      )
      .execute()
    if (shape === 'in-usdc')
      await db
        .insertInto('transfers')
        .values({
          wallet_id: walletIds[walletIndex]!,
          signature: `sig-${walletIndex}-${n}`,
          block_time_sec: 1_700_000_000 + slot,
          direction: 'in',
          counterparty: testAddress(40),
          mint: USDC,
          amount: size * 100,
          amount_text: decimalText(size * 100),
          amount_raw: String(size * 100 * 1e6),
          decimals: 6,
          symbol: 'USDC',
        })
        .execute()
    truths.push({ id: tx.id, walletIndex, slot, kind, feePayerIsWallet: payer, changes })
  }
  return truths
}

/** A leg's net amount: the fee the wallet paid left out of its SOL change. */
const net = (t: Truth, c: Change) =>
  c.mint === NATIVE_SOL_MINT && t.feePayerIsWallet ? c.amount + FEE : c.amount

function bruteForce(truths: Truth[], input: FeedFiltersInput): Truth[] {
  const f = FeedFilters.parse(input)
  const chosen = new Set<number>()
  for (const a of f.wallets) chosen.add(wallets.indexOf(a))
  const tagged: Record<string, number[]> = { treasury: [0], desk: [1, 2] }
  for (const tag of f.tags) for (const i of tagged[tag] ?? []) chosen.add(i)
  const mints =
    f.token === null ? null : f.token.toLowerCase() === 'usdc' ? [USDC, USDC_OTHER] : [f.token]
  return truths
    .filter((t) => chosen.size === 0 || chosen.has(t.walletIndex))
    .filter((t) => f.kinds.length === 0 || f.kinds.includes(t.kind ?? 'UNKNOWN'))
    .filter(
      (t) =>
        (mints === null && f.direction === null && f.minUsd === null) ||
        t.changes.some((c) => {
          const n = net(t, c)
          const price = PRICES[c.mint] ?? null
          return (
            (mints === null || mints.includes(c.mint)) &&
            (f.direction === null || (f.direction === 'in' ? n > 5e-10 : n < -5e-10)) &&
            (f.minUsd === null || (price !== null && Math.abs(n) * price >= f.minUsd))
          )
        }),
    )
    .sort((a, b) => b.slot - a.slot || b.id - a.id)
}

const FILTERS: [string, FeedFiltersInput][] = [
  ['no filter', {}],
  ['one wallet', { wallets: [wallets[3]!] }],
  ['two wallets (merged per wallet)', { wallets: [wallets[0]!, wallets[3]!] }],
  ['a tag', { tags: ['DESK'] }],
  ['a wallet and a tag', { wallets: [wallets[3]!], tags: ['treasury'] }],
  ['a type', { kinds: ['swap'] }],
  ['UNKNOWN, with rows from before types', { kinds: ['UNKNOWN'] }],
  ['direction in', { direction: 'in' }],
  ['direction out (fee left out)', { direction: 'out' }],
  ['a token by symbol, any case', { token: 'Usdc' }],
  ['a token by mint', { token: BONK }],
  ['minimum USD', { minUsd: 1_000 }],
  ['token, direction and USD on one leg', { token: 'USDC', direction: 'out', minUsd: 100 }],
  ['a tag and a type', { tags: ['desk'], kinds: ['TRANSFER', 'NFT_SALE'] }],
  ['two types (merged per type)', { kinds: ['SWAP', 'NFT_SALE'] }],
  ['a type given twice: each row once', { kinds: ['SWAP', 'swap'] }],
  ['a token and a wallet', { token: 'usdc', wallets: [wallets[0]!] }],
  ['a token and a type', { token: 'USDC', kinds: ['SWAP'] }],
  // Each wallet's rows of a type (merged per wallet and type), with a direction on them.
  [
    'two wallets, two types and a direction',
    { wallets: [wallets[0]!, wallets[1]!], kinds: ['UNKNOWN', 'SWAP'], direction: 'out' },
  ],
  // Each wallet's changes of each mint of a symbol (merged per wallet and mint).
  ['a tag, a token and a direction', { tags: ['desk'], token: 'usdc', direction: 'in' }],
  // Chosen wallets with a leg test: on PostgreSQL, candidates read in rounds.
  ['a tag and a minimum USD value', { tags: ['desk'], minUsd: 1_000 }],
  [
    'two wallets and a rare minimum USD value',
    { wallets: [wallets[0]!, wallets[1]!], minUsd: 2_500 },
  ],
  // Chosen wallets' changes of one mint.
  [
    'two wallets, one mint, a type and a direction',
    { wallets: [wallets[0]!, wallets[1]!], token: BONK, kinds: ['TRANSFER'], direction: 'in' },
  ],
  ['a tag, one mint and a rare minimum USD value', { tags: ['desk'], token: USDC, minUsd: 2_500 }],
  // SOL with a type: the type's order read, each row's SOL leg tested.
  ['SOL and a type', { token: NATIVE_SOL_MINT, kinds: ['SWAP'] }],
  [
    'two wallets, SOL, a type and a direction',
    {
      wallets: [wallets[0]!, wallets[3]!],
      token: NATIVE_SOL_MINT,
      kinds: ['NFT_SALE', 'SWAP'],
      direction: 'in',
    },
  ],
]

describe.each(ENGINES)('the feed query on %s', (engine) => {
  let opened: Awaited<ReturnType<typeof openEngineMirror>>
  let truths: Truth[]
  const page = (filters: FeedFiltersInput, cursor: FeedCursor | null, limit: number) =>
    opened.mirror.feed.page({
      filters: FeedFilters.parse(filters),
      cursor,
      newerThan: null,
      limit,
      unreadCap: 999,
    })
  async function walk(filters: FeedFiltersInput, limit: number): Promise<FeedQueryRow[]> {
    const rows: FeedQueryRow[] = []
    let cursor: FeedCursor | null = null
    for (let i = 0; i < 200; i++) {
      const got = await page(filters, cursor, limit)
      rows.push(...got.rows)
      if (got.nextCursor === null) return rows
      expect(got.rows).toHaveLength(limit)
      cursor = got.nextCursor
    }
    throw new Error('the walk did not end')
  }

  beforeAll(async () => {
    opened = await openEngineMirror(engine)
    truths = await fill(opened.mirror.database.db)
  })
  afterAll(() => opened?.drop())

  it('pages every wallet’s transactions newest first by (slot, id), each page joining the last', async () => {
    const want = bruteForce(truths, {})
    expect(want.length).toBe(186)
    const first = await page({}, null, 25)
    expect(first.rows.map((r) => r.key.id)).toEqual(want.slice(0, 25).map((t) => t.id))
    const all = await walk({}, 13)
    expect(all.map((r) => r.key.id)).toEqual(want.map((t) => t.id))
    expect(new Set(all.map((r) => r.key.id)).size).toBe(all.length)
  })

  for (const [name, filters] of FILTERS) {
    it(`filters: ${name}`, async () => {
      const want = bruteForce(truths, filters)
      expect(want.length).toBeGreaterThan(0)
      // Fewer than all: the filter narrows.
      if (Object.keys(filters).length > 0) expect(want.length).toBeLessThan(truths.length)
      const got = await walk(filters, 7)
      expect(got.map((r) => r.key.id)).toEqual(want.map((t) => t.id))
    })
  }

  it('small pages of chosen wallets with a leg test: the same rows, whatever the rounds of candidates', async () => {
    // A page of 2 reads 16 candidates first: rare legs take several rounds.
    const cases: FeedFiltersInput[] = [
      { wallets: [wallets[0]!, wallets[1]!], minUsd: 2_500 },
      { tags: ['desk'], minUsd: 1_000 },
      { wallets: [wallets[0]!, wallets[1]!], token: NATIVE_SOL_MINT, kinds: ['NFT_SALE'] },
    ]
    for (const filters of cases) {
      const want = bruteForce(truths, filters)
      expect(want.length).toBeGreaterThan(2)
      const got = await walk(filters, 2)
      expect(got.map((r) => r.key.id)).toEqual(want.map((t) => t.id))
    }
  })

  it('rows carry the wallet, its label, legs net of the fee with symbols and prices, and named counterparties', async () => {
    const rows = await walk({}, 50)
    const received = rows.find((r) => r.transfers.length > 0)!
    expect(received.transfers[0]).toMatchObject({ direction: 'in', counterpartyName: 'sunny.sol' })
    const sent = rows.find(
      (r) =>
        r.legs.length === 1 &&
        r.legs[0]!.mint === NATIVE_SOL_MINT &&
        r.legs[0]!.amountText.startsWith('-'),
    )!
    const truth = truths.find((t) => t.id === sent.key.id)!
    expect(sent.legs[0]).toMatchObject({ symbol: 'SOL', priceUsd: 150, decimals: 9 })
    expect(sent.legs[0]!.amountText).toBe(String(Math.round(truth.changes[0]!.amount + FEE)))
    // A fee alone moves nothing.
    const feeOnly = truths.find((t) => t.kind === 'UNKNOWN')!
    expect(rows.find((r) => r.key.id === feeOnly.id)!.legs).toEqual([])
    const treasury = rows.find((r) => r.walletAddress === wallets[0])!
    expect(treasury.walletLabel).toBe('Treasury')
    expect(rows.find((r) => r.walletAddress === wallets[1])!.walletLabel).toBeNull()
  })

  it('reads only rows newer than a key, for following the feed', async () => {
    const want = bruteForce(truths, {})
    const seen = want[20]!
    const got = await opened.mirror.feed.page({
      filters: FeedFilters.parse({}),
      cursor: null,
      newerThan: { slot: seen.slot, id: seen.id },
      limit: 200,
      unreadCap: 999,
    })
    expect(got.rows.map((r) => r.key.id)).toEqual(want.slice(0, 20).map((t) => t.id))
  })

  it('counts and marks the rows above the last-viewed mark, and the mark only moves forward', async () => {
    expect((await page({}, null, 10)).unreadCount).toBe(0) // never viewed: nothing is new
    const want = bruteForce(truths, {})
    const mark = want[30]!
    await opened.mirror.feed.markViewed(1, { slot: mark.slot, id: mark.id })
    const got = await page({}, null, 40)
    expect(got.unreadCount).toBe(30)
    expect(got.isUnreadCapped).toBe(false)
    expect(got.rows.map((r) => r.isUnread)).toEqual(want.slice(0, 40).map((_, i) => i < 30))
    const desk = await page({ tags: ['desk'] }, null, 5)
    expect(desk.unreadCount).toBe(
      bruteForce(truths, { tags: ['desk'] }).filter((t) => want.indexOf(t) < 30).length,
    )
    // An older page marked later does not make rows unread again.
    const older = want[50]!
    await opened.mirror.feed.markViewed(2, { slot: older.slot, id: older.id })
    expect((await page({}, null, 1)).unreadCount).toBe(30)
    await opened.mirror.feed.markViewed(3)
    expect((await page({}, null, 1)).unreadCount).toBe(0)
  })

  it('a token without a price never reaches a minimum USD value, even $0; a priced one does', async () => {
    expect(bruteForce(truths, { token: 'BONK', minUsd: 0 })).toEqual([])
    expect((await page({ token: 'BONK', minUsd: 0 }, null, 5)).rows).toEqual([])
    expect((await page({ token: BONK, minUsd: 0, direction: 'in' }, null, 5)).rows).toEqual([])
    const priced = bruteForce(truths, { token: 'USDC', minUsd: 0 })
    expect(priced.length).toBeGreaterThan(0)
    const got = await walk({ token: 'USDC', minUsd: 0 }, 9)
    expect(got.map((r) => r.key.id)).toEqual(priced.map((t) => t.id))
  })

  if (engine === 'sqlite')
    it('reads each chosen wallet’s rows of a type or token in the feed’s order, on their own index (no sort)', async () => {
      const { sqlite } = (opened.mirror as SqliteMirror).database
      sqlite.exec('analyze')
      const queries: CompiledQuery[] = []
      const logged = new Kysely<Database>({
        dialect: new SqliteDialect({ database: sqlite }),
        log: (event) => {
          if (event.level === 'query') queries.push(event.query)
        },
      })
      const planOfKeys = async (filters: FeedFiltersInput): Promise<string[]> => {
        queries.length = 0
        await fetchFeedPage(logged, {
          filters: FeedFilters.parse(filters),
          cursor: null,
          newerThan: null,
          limit: 5,
          lastViewed: null,
          unreadCap: 999,
        })
        const keys = queries.find((q) => /^select (\* from \(select )?"(t|c)"\."slot"/.test(q.sql))!
        const plan = sqlite.prepare(`explain query plan ${keys.sql}`).all(...keys.parameters) as {
          detail: string
        }[]
        return plan.map((r) => r.detail)
      }
      // An index read sorted: what the walk should not need (the merge may sort each
      // arm's page-sized answer).
      const sortedReads = (plan: string[]) =>
        plan.filter((line, i) => line.includes('TEMP B-TREE') && plan[i - 1]?.startsWith('SEARCH'))
      const cases: [FeedFiltersInput, string][] = [
        [{ wallets: [wallets[0]!, wallets[3]!], kinds: ['SWAP'] }, 'transactions_wallet_kind_feed'],
        [{ wallets: [wallets[0]!, wallets[3]!], token: BONK }, 'balance_changes_wallet_mint_feed'],
        // SOL narrows nothing a type does not narrow more: the type's order, not SOL's.
        [
          { wallets: [wallets[0]!, wallets[3]!], token: NATIVE_SOL_MINT, kinds: ['SWAP'] },
          'transactions_wallet_kind_feed',
        ],
        // Without a type, a wallet's rows in its own order, not its types' (then sorted).
        [{ wallets: [wallets[0]!, wallets[3]!] }, 'transactions_wallet_feed'],
      ]
      for (const [filters, index] of cases) {
        const plan = await planOfKeys(filters)
        // One walk per wallet (the row lookups by primary key aside), each on the index.
        const walks = plan.filter((l) => /^SEARCH (t|c) /.test(l) && !l.includes('PRIMARY KEY'))
        expect(walks.length, plan.join('\n')).toBe(2)
        for (const walk of walks) expect(walk, plan.join('\n')).toContain(`INDEX ${index} `)
        expect(sortedReads(plan), plan.join('\n')).toEqual([])
      }
    })

  it('refuses a wallet that is not watched and a token the mirror does not know, naming them', async () => {
    await expect(page({ wallets: [testAddress(77)] }, null, 5)).rejects.toThrow(
      `Wallet ${testAddress(77)} is not on the watchlist.`,
    )
    await expect(page({ token: 'NOPE' }, null, 5)).rejects.toThrow('No token “NOPE” in the mirror')
    // A tag no wallet carries matches nothing.
    expect((await page({ tags: ['nobody'] }, null, 5)).rows).toEqual([])
  })
})
