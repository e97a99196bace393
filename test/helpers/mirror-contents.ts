import type BetterSqlite3 from 'better-sqlite3'

/** What the mirror holds for a wallet, in forms that compare directly with the truth. */
export function readMirror(sqlite: BetterSqlite3.Database, address: string) {
  const walletId = (
    sqlite.prepare('select id from wallets where address = ?').get(address) as { id: number }
  ).id
  const transactions = sqlite
    .prepare(
      'select signature, slot, block_time_sec, fee_text, fee_payer, error from transactions where wallet_id = ? order by slot, signature',
    )
    .all(walletId) as {
    signature: string
    slot: number
    block_time_sec: number | null
    fee_text: string
    fee_payer: string
    error: string | null
  }[]
  const changes = sqlite
    .prepare(
      `select t.signature, b.ordinal, b.mint, b.amount_text, b.decimals from balance_changes b
       join transactions t on t.id = b.transaction_id where b.wallet_id = ? order by t.signature, b.ordinal`,
    )
    .all(walletId) as {
    signature: string
    ordinal: number
    mint: string
    amount_text: string
    decimals: number
  }[]
  const transfers = sqlite
    .prepare(
      'select signature, mint, direction, counterparty, amount_raw from transfers where wallet_id = ?',
    )
    .all(walletId) as {
    signature: string
    mint: string
    direction: string
    counterparty: string
    amount_raw: string
  }[]
  const compressed = sqlite
    .prepare('select kind, signature from compressed_signatures where wallet_id = ?')
    .all(walletId) as { kind: string; signature: string }[]
  // The newest balances snapshot: what the wallet held when it was taken.
  const snapshot = sqlite
    .prepare(
      'select id from balance_snapshots where wallet_id = ? order by taken_at_sec desc, id desc limit 1',
    )
    .get(walletId) as { id: number } | undefined
  const balances = sqlite
    .prepare('select mint, balance_text from balance_snapshot_items where snapshot_id = ?')
    .all(snapshot?.id ?? -1) as { mint: string; balance_text: string }[]
  const nftMints = (
    sqlite
      .prepare('select mint from balance_snapshot_nfts where snapshot_id = ?')
      .all(snapshot?.id ?? -1) as { mint: string }[]
  ).map((r) => r.mint)
  const ledgerCredits = (
    sqlite.prepare('select coalesce(sum(credits), 0) as n from credit_ledger').get() as {
      n: number
    }
  ).n
  return {
    walletId,
    transactions,
    changes,
    transfers,
    compressed,
    hasSnapshot: snapshot !== undefined,
    balances,
    nftMints,
    ledgerCredits,
  }
}

/** A transfer as a comparable key. */
export function transferKey(t: {
  signature: string
  mint: string
  direction: string
  counterparty: string
  amountRaw?: string
  amount_raw?: string
}): string {
  return [t.signature, t.mint, t.direction, t.counterparty, t.amountRaw ?? t.amount_raw].join('|')
}
