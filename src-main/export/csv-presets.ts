import { explorerTxUrl } from '@shared/domain/explorer'
import { BALANCE_AT_NATIVE_SOL_MINT, NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalText } from '@shared/domain/exact-amount'
import type { ExportFormat, ExportKind } from '@shared/ipc/export-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import {
  absDecimal,
  addDecimals,
  coinTrackerTime,
  exactAmount,
  feeSolText,
  isoUtc,
  koinlyTime,
  negateDecimal,
  signOfDecimal,
  textCell,
} from './csv-cells'
import type { CsvChunkWriter } from './csv-encoder'
import { currencyNames, type CurrencyNames } from './currency-names'

// The column layouts of every export, in one place: each layout says its header, which
// source rows belong together, and how they become CSV records.

/** A balance-changes row as export-query reads it. */
export interface BalanceChangeRow {
  transactionId: number
  blockTimeSec: number | null
  slot: number
  signature: string
  wallet: string
  walletLabel: string | null
  mint: string
  symbol: string | null
  amountText: string
  amountRaw: string | null
  decimals: number
  feeText: string
  feePayer: string
  isFailed: number
}

/** A transfers row as export-query reads it. */
export interface TransferRow {
  blockTimeSec: number
  wallet: string
  walletLabel: string | null
  signature: string
  direction: string
  counterparty: string
  mint: string
  symbol: string | null
  amountText: string
  amountRaw: string
  decimals: number
}

/** A current-balances row as export-query reads it: a token holding or an NFT. */
export interface BalanceRow {
  takenAtSec: number
  wallet: string
  walletLabel: string | null
  mint: string
  symbol: string | null
  name: string | null
  balanceText: string
  decimals: number
  /** Null for NFTs: the balances snapshot prices fungible tokens only. */
  priceUsd: number | null
  usdValue: number | null
  /** The token program; '' where the mirror does not know it (an NFT's, say). */
  tokenProgram: string
  isNft: number
  isCompressed: number
}

/** A holding at the end of a day (UTC), as `balances:at` answers it for one wallet. */
export interface BalanceAtRow {
  /** YYYY-MM-DD: balances as of the day's last second. */
  date: string
  wallet: string
  /** The person's label, else the name the service knows the wallet by. */
  walletLabel: string | null
  mint: string
  symbol: string | null
  /** Exact decimal text. */
  amount: string
}

/** One CSV record: every cell already final text. */
export type CsvRecord = string[]

/** How source rows of one kind become records in one format. */
export interface CsvLayout<Row> {
  header: readonly string[]
  /** Rows with the same key are adjacent and become records together (one transaction). */
  groupKey?: (row: Row) => number
  /** The group's records, cell by cell. */
  records(group: readonly Row[]): CsvRecord[]
  /**
   * Writes the group's records to `csv`; returns how many. What exports write: the same
   * cells as `records`, without an array per record (a million-row export spent a fifth of
   * its time building and joining them).
   */
  encode(group: readonly Row[], csv: CsvChunkWriter): number
}

/**
 * A column: numbers and times are written as they are; text (labels, symbols, names,
 * addresses) goes through {@link textCell} against formula injection. A `formatted` cell
 * is one this module writes itself (a time, an exact decimal, a fixed word): it never holds
 * a delimiter, quote or line break, so exports skip its quote check (a test holds every
 * layout's output equal to csv-stringify's over awkward rows).
 */
interface Column<R> {
  header: string
  kind: 'text' | 'value' | 'formatted'
  cell(r: R): string | number | null
}

const column =
  (kind: Column<unknown>['kind']) =>
  <R>(header: string, cell: (r: R) => string | number | null): Column<R> => ({
    header,
    kind,
    cell,
  })
const text: <R>(header: string, cell: (r: R) => string | null) => Column<R> = column('text')
const value = column('value')
const formatted = column('formatted')

function cellText<R>(column: Column<R>, record: R): string {
  const v = column.cell(record)
  return v === null ? '' : column.kind === 'text' ? textCell(String(v)) : String(v)
}

function render<R>(columns: readonly Column<R>[], record: R): CsvRecord {
  return columns.map((c) => cellText(c, record))
}

/** Writes a record's cells as `render` makes them; formatted cells skip the quote check. */
function writeRecord<R>(columns: readonly Column<R>[], record: R, csv: CsvChunkWriter): void {
  for (const c of columns) {
    const cell = cellText(c, record)
    if (c.kind === 'formatted') csv.plainField(cell)
    else csv.field(cell)
  }
  csv.endRecord()
}

function layoutOf<Row, Shaped>(
  columns: readonly Column<Shaped>[],
  shape: (group: readonly Row[]) => Shaped[],
  groupKey?: (row: Row) => number,
): CsvLayout<Row> {
  return {
    header: columns.map((c) => c.header),
    ...(groupKey ? { groupKey } : {}),
    records: (group) => shape(group).map((r) => render(columns, r)),
    encode: (group, csv) => {
      const shaped = shape(group)
      for (const r of shaped) writeRecord(columns, r, csv)
      return shaped.length
    },
  }
}

function isSol(mint: string): boolean {
  return mint === NATIVE_SOL_MINT || mint === BALANCE_AT_NATIVE_SOL_MINT
}

// ---------------------------------------------------------------- balance changes, full

/** A row with what the full layout adds: its exact amount and, on one row, the fee. */
interface FullChange {
  row: BalanceChangeRow
  amount: string
  fee: string | null
}

/**
 * The fee sits on one row per transaction, and only when this wallet paid it: the SOL row
 * when there is one (its amount already includes the fee, as the chain reports net
 * balance changes), else the transaction's first row in the export.
 */
function feeRowIndex(group: readonly BalanceChangeRow[]): number {
  const first = group[0]
  if (first === undefined || first.feePayer !== first.wallet) return -1
  const solIndex = group.findIndex((r) => isSol(r.mint))
  return solIndex >= 0 ? solIndex : 0
}

function shapeFullChanges(group: readonly BalanceChangeRow[]): FullChange[] {
  const feeAt = feeRowIndex(group)
  return group.map((row, i) => ({
    row,
    amount: exactAmount(row.amountRaw, row.decimals, row.amountText),
    fee: i === feeAt ? feeSolText(row.feeText) : null,
  }))
}

const FULL_CHANGE_COLUMNS: Column<FullChange>[] = [
  formatted('Time (UTC)', (c) => isoUtc(c.row.blockTimeSec)),
  text('Wallet', (c) => c.row.wallet),
  text('Wallet label', (c) => c.row.walletLabel),
  text('Signature', (c) => c.row.signature),
  value('Slot', (c) => c.row.slot),
  text('Mint', (c) => c.row.mint),
  text('Symbol', (c) => c.row.symbol),
  formatted('Amount', (c) => c.amount),
  value('Raw amount', (c) => c.row.amountRaw),
  value('Decimals', (c) => c.row.decimals),
  formatted('Direction', (c) => (c.amount.startsWith('-') ? 'out' : 'in')),
  formatted('Fee (SOL)', (c) => c.fee),
  text('Fee payer', (c) => c.row.feePayer),
  formatted('Status', (c) => (c.row.isFailed ? 'failed' : 'ok')),
  value('Explorer', (c) => explorerTxUrl(c.row.signature)),
]

// ---------------------------------------------------------------- tax-tool records

/** One line of a tax tool's universal layout: what left, what came in, the fee, in SOL. */
interface TaxRecord {
  timeSec: number | null
  sent: { amount: string; currency: string } | null
  received: { amount: string; currency: string } | null
  feeSol: string | null
  /** Nothing moved but the fee (a failed transaction, or a fee-only call). */
  isFeeOnly: boolean
  description: string
  txHash: string
}

interface Leg {
  amount: string
  currency: string
}

/**
 * A transaction seen from one wallet, as tax tools expect it: amounts exclude the fee
 * (the chain's SOL change includes it when the wallet paid, so it is added back), the fee
 * is its own field in SOL, one outflow with one inflow is one trade row (the universal
 * layouts' sent and received columns), and anything else is one row per movement, all
 * with the transaction's TxHash and the fee on the first: the withdrawals and deposits a
 * tool can merge back into one exchange
 * (https://support.koinly.io/en/articles/9490046-how-to-merge-split-transactions-manually).
 */
function taxRecordsOfTransaction(
  group: readonly BalanceChangeRow[],
  currencyOf: CurrencyNames,
): TaxRecord[] {
  const first = group[0]
  if (first === undefined) return []
  const paidFee = first.feePayer === first.wallet ? feeSolText(first.feeText) : null
  const feeSol = paidFee !== null && signOfDecimal(paidFee) !== 0 ? paidFee : null
  const legs: Leg[] = group.map((r) => {
    const amount = exactAmount(r.amountRaw, r.decimals, r.amountText)
    return {
      amount: feeSol !== null && isSol(r.mint) ? addDecimals(amount, feeSol) : amount,
      currency: currencyOf(r.mint, r.symbol),
    }
  })
  const outs = legs.filter((l) => signOfDecimal(l.amount) < 0)
  const ins = legs.filter((l) => signOfDecimal(l.amount) > 0)
  const label = first.walletLabel ?? first.wallet
  const base = {
    timeSec: first.blockTimeSec,
    description: first.isFailed ? `${label}: failed transaction` : label,
    txHash: first.signature,
  }
  const asSent = (l: Leg): TaxRecord['sent'] => ({
    amount: negateDecimal(l.amount),
    currency: l.currency,
  })
  const asReceived = (l: Leg): TaxRecord['received'] => ({ amount: l.amount, currency: l.currency })

  let records: TaxRecord[]
  const [out] = outs
  const [inflow] = ins
  if (outs.length === 1 && ins.length === 1 && out && inflow) {
    records = [
      { ...base, sent: asSent(out), received: asReceived(inflow), feeSol: null, isFeeOnly: false },
    ]
  } else {
    records = [
      ...outs.map((l) => ({
        ...base,
        sent: asSent(l),
        received: null,
        feeSol: null,
        isFeeOnly: false,
      })),
      ...ins.map((l) => ({
        ...base,
        sent: null,
        received: asReceived(l),
        feeSol: null,
        isFeeOnly: false,
      })),
    ]
  }
  const [head] = records
  if (head) head.feeSol = feeSol
  else if (feeSol !== null)
    records = [{ ...base, sent: null, received: null, feeSol, isFeeOnly: true }]
  return records
}

function taxRecordOfTransfer(r: TransferRow, currencyOf: CurrencyNames): TaxRecord {
  const leg = {
    amount: absDecimal(exactAmount(r.amountRaw, r.decimals, r.amountText)),
    currency: currencyOf(r.mint, r.symbol),
  }
  const isOut = r.direction === 'out'
  return {
    timeSec: r.blockTimeSec,
    sent: isOut ? leg : null,
    received: isOut ? null : leg,
    feeSol: null,
    isFeeOnly: false,
    description: `${r.walletLabel ?? r.wallet} ${isOut ? 'to' : 'from'} ${r.counterparty}`,
    txHash: r.signature,
  }
}

/** Koinly's universal import layout. A fee-only row is a SOL send labelled `cost`. */
const KOINLY_COLUMNS: Column<TaxRecord>[] = [
  formatted('Date (UTC)', (r) => koinlyTime(r.timeSec)),
  value('Sent Amount', (r) => (r.isFeeOnly ? r.feeSol : (r.sent?.amount ?? null))),
  text('Sent Currency', (r) => (r.isFeeOnly ? 'SOL' : (r.sent?.currency ?? null))),
  value('Received Amount', (r) => r.received?.amount ?? null),
  text('Received Currency', (r) => r.received?.currency ?? null),
  value('Fee Amount', (r) => (r.isFeeOnly ? null : r.feeSol)),
  value('Fee Currency', (r) => (r.isFeeOnly || r.feeSol === null ? null : 'SOL')),
  value('Net Worth Amount', () => null),
  value('Net Worth Currency', () => null),
  value('Label', (r) => (r.isFeeOnly ? 'cost' : null)),
  text('Description', (r) => r.description),
  text('TxHash', (r) => r.txHash),
]

/**
 * CoinTracker's import layout (docs/service.md, Tax-tool CSV layouts). Every row moves
 * something: a fee-only transaction is a send of the fee in SOL, which CoinTracker counts
 * as a disposal like any untagged send; a row of a fee alone would not import. The tag is
 * left blank (CoinTracker's own send, receive or trade): its tags name what the chain does
 * not tell, such as a gift or a staking reward.
 */
const COINTRACKER_COLUMNS: Column<TaxRecord>[] = [
  formatted('Date', (r) => coinTrackerTime(r.timeSec)),
  value('Received Quantity', (r) => r.received?.amount ?? null),
  text('Received Currency', (r) => r.received?.currency ?? null),
  value('Sent Quantity', (r) => (r.isFeeOnly ? r.feeSol : (r.sent?.amount ?? null))),
  text('Sent Currency', (r) => (r.isFeeOnly ? 'SOL' : (r.sent?.currency ?? null))),
  value('Fee Amount', (r) => (r.isFeeOnly ? null : r.feeSol)),
  value('Fee Currency', (r) => (r.isFeeOnly || r.feeSol === null ? null : 'SOL')),
  value('Tag', () => null),
]

// ---------------------------------------------------------------- transfers, balances

interface FullTransfer extends TransferRow {
  signed: string
  signedRaw: string
}

const FULL_TRANSFER_COLUMNS: Column<FullTransfer>[] = [
  formatted('Time (UTC)', (r) => isoUtc(r.blockTimeSec)),
  text('Wallet', (r) => r.wallet),
  text('Wallet label', (r) => r.walletLabel),
  text('Signature', (r) => r.signature),
  value('Direction', (r) => r.direction),
  text('Counterparty', (r) => r.counterparty),
  text('Mint', (r) => r.mint),
  text('Symbol', (r) => r.symbol),
  value('Amount', (r) => r.signed),
  value('Raw amount', (r) => r.signedRaw),
  value('Decimals', (r) => r.decimals),
  value('Explorer', (r) => explorerTxUrl(r.signature)),
]

function shapeFullTransfer(group: readonly TransferRow[]): FullTransfer[] {
  return group.map((r) => {
    const amount = absDecimal(exactAmount(r.amountRaw, r.decimals, r.amountText))
    const raw = absDecimal(r.amountRaw)
    const isOut = r.direction === 'out'
    return {
      ...r,
      signed: isOut ? negateDecimal(amount) : amount,
      signedRaw: isOut ? negateDecimal(raw) : raw,
    }
  })
}

const FULL_BALANCE_COLUMNS: Column<BalanceRow>[] = [
  formatted('Snapshot time (UTC)', (r) => isoUtc(r.takenAtSec)),
  text('Wallet', (r) => r.wallet),
  text('Wallet label', (r) => r.walletLabel),
  text('Mint', (r) => r.mint),
  text('Symbol', (r) => r.symbol),
  text('Name', (r) => r.name),
  value('Balance', (r) => exactAmount(null, r.decimals, r.balanceText)),
  value('Decimals', (r) => r.decimals),
  // Prices and values are the service's floating USD figures: written in full, no exponent.
  value('Price (USD)', (r) => (r.priceUsd === null ? null : decimalText(r.priceUsd))),
  value('Value (USD)', (r) => (r.usdValue === null ? null : decimalText(r.usdValue))),
  // SOL is the chain's native asset, held by no token program (the service labels it spl-token).
  value('Token program', (r) =>
    isSol(r.mint) ? 'native' : r.isCompressed ? 'compressed' : r.tokenProgram || null,
  ),
  value('Asset', (r) => (isSol(r.mint) ? 'native' : r.isNft ? 'nft' : 'token')),
]

const FULL_BALANCE_AT_COLUMNS: Column<BalanceAtRow>[] = [
  value('Date (UTC)', (r) => r.date),
  text('Wallet', (r) => r.wallet),
  text('Wallet label', (r) => r.walletLabel),
  text('Mint', (r) => r.mint),
  text('Symbol', (r) => r.symbol),
  value('Amount', (r) => r.amount),
]

const byTransaction = (r: BalanceChangeRow): number => r.transactionId

/** Row type of each export kind. */
export interface RowOfKind {
  'balance-changes': BalanceChangeRow
  transfers: TransferRow
  balances: BalanceRow
  'balances-at': BalanceAtRow
}

function layoutsWith(currencyOf: CurrencyNames): {
  [K in ExportKind]: Partial<Record<ExportFormat, CsvLayout<RowOfKind[K]>>>
} {
  const changeRecords = (g: readonly BalanceChangeRow[]) => taxRecordsOfTransaction(g, currencyOf)
  const transferRecords = (g: readonly TransferRow[]) =>
    g.map((r) => taxRecordOfTransfer(r, currencyOf))
  return {
    'balance-changes': {
      full: layoutOf(FULL_CHANGE_COLUMNS, shapeFullChanges, byTransaction),
      koinly: layoutOf(KOINLY_COLUMNS, changeRecords, byTransaction),
      cointracker: layoutOf(COINTRACKER_COLUMNS, changeRecords, byTransaction),
    },
    transfers: {
      full: layoutOf(FULL_TRANSFER_COLUMNS, shapeFullTransfer),
      koinly: layoutOf(KOINLY_COLUMNS, transferRecords),
      cointracker: layoutOf(COINTRACKER_COLUMNS, transferRecords),
    },
    // Tax tools import movements, not holdings: balances have the full layout only.
    balances: { full: layoutOf(FULL_BALANCE_COLUMNS, (g: readonly BalanceRow[]) => [...g]) },
    'balances-at': {
      full: layoutOf(FULL_BALANCE_AT_COLUMNS, (g: readonly BalanceAtRow[]) => [...g]),
    },
  }
}

/**
 * The layout of an export kind in a format; rejects combinations that do not exist. Tax
 * layouts name currencies with `currencyOf` (see currencyNames: unique per mint).
 *
 * @example
 * layoutFor('balance-changes', 'koinly').header[0] // 'Date (UTC)'
 */
export function layoutFor<K extends ExportKind>(
  kind: K,
  format: ExportFormat,
  currencyOf: CurrencyNames = currencyNames([]),
): CsvLayout<RowOfKind[K]> {
  const layout = (
    layoutsWith(currencyOf)[kind] as Partial<Record<ExportFormat, CsvLayout<RowOfKind[K]>>>
  )[format]
  if (layout === undefined) {
    throw new InvalidInputError(
      `The ${format} layout describes transactions; export ${kind} in the full format instead.`,
      { kind, format },
    )
  }
  return layout
}
