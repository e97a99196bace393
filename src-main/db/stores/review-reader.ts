import type { Kysely } from 'kysely'
import type {
  CompressedCursor,
  CompressedKind,
  CompressedPage,
  CurrentBalances,
  HistoryFilters,
  HistoryPage,
  LatestTransfer,
  MintOption,
  NftItem,
  RowCount,
  TransferFilters,
  TransferPage,
  WalletProfile,
  WalletSummary,
} from '@shared/ipc/review-schemas'
import { fetchCurrentBalances, listCurrentNfts } from '../queries/balance-queries'
import { fetchCompressedPage } from '../queries/compressed-queries'
import {
  countHistory,
  fetchHistoryPage,
  listHistoryMints,
  type HistoryQuery,
} from '../queries/history-queries'
import {
  countTransfers,
  fetchTransferPage,
  listLatestTransfers,
  type TransferQuery,
} from '../queries/transfer-queries'
import {
  fetchWalletProfile,
  listWalletSummaries,
  markWalletViewed,
  walletIdOf,
} from '../queries/wallet-summary-queries'
import type { Database } from '../schema'
import type {
  AmountSeries,
  ValueSeries,
  WatchlistTotals,
  WholeWallet,
} from '@shared/ipc/wallet-schemas'
import {
  fetchWalletAmountSeries,
  fetchWatchlistAmountSeries,
} from '../queries/amount-series-queries'
import { fetchWalletValueSeries, fetchWatchlistValueSeries } from '../queries/value-series-queries'
import { rebuildBalancesAt, type LocalBalancesAt } from '../queries/balance-at-queries'
import { fetchWatchlistTotals, fetchWholeWallet } from '../queries/whole-wallet-queries'

/**
 * What the review views read, by wallet address: each call answers NotFoundError when the
 * wallet is not watched.
 */
export class ReviewReader {
  /** Where reads run: the mirror's reader threads where it has them (SQLite in the app). */
  readonly #db: Kysely<Database>
  /** Where the one write (a wallet marked viewed) runs: the mirror's own connection. */
  readonly #writes: Kysely<Database>
  constructor(db: Kysely<Database>, reads: Kysely<Database> = db) {
    this.#db = reads
    this.#writes = db
  }

  async historyPage(address: string, query: HistoryQuery): Promise<HistoryPage> {
    return fetchHistoryPage(this.#db, await this.#id(address), query)
  }

  async historyCount(address: string, filters: HistoryFilters): Promise<RowCount> {
    return countHistory(this.#db, await this.#id(address), filters)
  }

  async historyMints(address: string): Promise<MintOption[]> {
    return listHistoryMints(this.#db, await this.#id(address))
  }

  async transferPage(address: string, query: TransferQuery): Promise<TransferPage> {
    return fetchTransferPage(this.#db, await this.#id(address), query)
  }

  async transferCount(address: string, filters: TransferFilters): Promise<RowCount> {
    return countTransfers(this.#db, await this.#id(address), filters)
  }

  async currentBalances(address: string): Promise<CurrentBalances> {
    return fetchCurrentBalances(this.#db, await this.#id(address))
  }

  async currentNfts(address: string): Promise<NftItem[]> {
    return listCurrentNfts(this.#db, await this.#id(address))
  }

  /** The wallet's USD value over time, from snapshots once they span more than a day. */
  async valueSeries(address: string): Promise<ValueSeries> {
    return fetchWalletValueSeries(this.#db, await this.#id(address))
  }

  /** The wallet's amount of a token over time, from its stored balance changes. */
  async amountSeries(address: string, mint: string | undefined): Promise<AmountSeries> {
    return fetchWalletAmountSeries(this.#db, await this.#id(address), mint)
  }

  async compressedPage(
    address: string,
    query: { kind: CompressedKind; cursor: CompressedCursor | null; limit: number },
  ): Promise<CompressedPage> {
    return fetchCompressedPage(this.#db, await this.#id(address), query)
  }

  async walletProfile(address: string): Promise<WalletProfile> {
    return fetchWalletProfile(this.#db, await this.#id(address))
  }

  /** Records that the person looked at the wallet now (clears its unseen badge). */
  async markViewed(address: string, nowSec: number): Promise<void> {
    await markWalletViewed(this.#writes, await this.#id(address), nowSec)
  }

  /** What the sidebar shows for every watched wallet. */
  walletSummaries(): Promise<WalletSummary[]> {
    return listWalletSummaries(this.#db)
  }

  /** Everything held now, names and funder (`show`, Overview). */
  async wholeWallet(address: string): Promise<WholeWallet> {
    return fetchWholeWallet(this.#db, await this.#id(address))
  }

  /** Balances at a time rebuilt from stored changes, or why the mirror cannot say. */
  async balancesAt(address: string, atSec: number): Promise<LocalBalancesAt> {
    return rebuildBalancesAt(this.#db, await this.#id(address), atSec)
  }

  /** The newest transfers across the watchlist (the Watchlist's latest activity). */
  latestTransfers(limit: number): Promise<LatestTransfer[]> {
    return listLatestTransfers(this.#db, limit)
  }

  /** Value and per-token totals across the watchlist. */
  watchlistTotals(): Promise<WatchlistTotals> {
    return fetchWatchlistTotals(this.#db)
  }

  /** The watchlist's total USD value over time (snapshots, once they span a day). */
  watchlistValueSeries(): Promise<ValueSeries> {
    return fetchWatchlistValueSeries(this.#db)
  }

  /** The watchlist's total amount of a token over time (balance changes). */
  watchlistAmountSeries(mint: string | undefined): Promise<AmountSeries> {
    return fetchWatchlistAmountSeries(this.#db, mint)
  }

  #id(address: string): Promise<number> {
    return walletIdOf(this.#db, address)
  }
}
