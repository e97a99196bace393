import type { HistoryEntry, TransferEntry } from '@shared/api/wallet-rest'

/** The simulator's full truth of a wallet, read from /__sim/truth (never charged). */
export interface WalletTruth {
  txCount: number
  history: HistoryEntry[]
  transfers: TransferEntry[]
  compressedOwner: string[]
  compressedTokenOwner: string[]
  /** Fungible holdings now, SOL included, as exact decimal text. */
  balances: { mint: string; text: string }[]
  /** Mints (asset ids) of the NFTs and compressed NFTs held now. */
  nftMints: string[]
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url).catch((error: unknown) => {
    // A kept-alive connection the simulator closed just as it was reused (its keep-alive
    // timeout, reached sooner on a busy machine): the truth is read again, once.
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error
    return fetch(url)
  })
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
  return (await response.json()) as T
}

/** Reads every history entry, transfer and compression signature of a wallet. */
export async function readWalletTruth(simUrl: string, address: string): Promise<WalletTruth> {
  const base = `${simUrl}/__sim/truth/${address}`
  const summary = await getJson<{
    txCount: number
    balances: { mint: string; text: string }[]
    nfts: { mint: string }[]
  }>(base)
  const { txCount } = summary
  const history: HistoryEntry[] = []
  const transfers: TransferEntry[] = []
  for (let from = 0; from < txCount; from += 10_000) {
    history.push(
      ...(await getJson<{ entries: HistoryEntry[] }>(`${base}/history?from=${from}&limit=10000`))
        .entries,
    )
    transfers.push(
      ...(
        await getJson<{ transfers: TransferEntry[] }>(`${base}/transfers?from=${from}&limit=10000`)
      ).transfers,
    )
  }
  const compressed = await getJson<{ owner: string[]; tokenOwner: string[] }>(
    `${base}/compression-signatures`,
  )
  return {
    txCount,
    history,
    transfers,
    compressedOwner: compressed.owner,
    compressedTokenOwner: compressed.tokenOwner,
    balances: summary.balances.map((b) => ({ mint: b.mint, text: b.text })),
    nftMints: summary.nfts.map((n) => n.mint),
  }
}

/** Credits the simulator charged the `demo` key. */
export async function simulatorCredits(simUrl: string, key = 'demo'): Promise<number> {
  return (
    await getJson<{ total: number }>(`${simUrl}/__sim/credits?key=${encodeURIComponent(key)}`)
  ).total
}
