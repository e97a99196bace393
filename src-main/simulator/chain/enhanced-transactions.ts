import { executionOrder, type ConfirmedTransaction } from '@shared/api/rpc-transaction'
import type { ServiceWords } from './service-words'

// A transaction as an enhanced webhook delivers it (the service's parsed form): who paid,
// the native and token transfers with both ends, each account's balance change and the
// programs it ran. Built from the same jsonParsed transaction getTransaction answers, so a
// delivery and a read of the same signature agree.

interface ParsedTransfer {
  type: string
  info: {
    source: string
    destination: string
    lamports?: number
    mint?: string
    tokenAmount?: { amount: string; decimals: number; uiAmount: number | null }
  }
}

/**
 * The enhanced event of a parsed transaction; `type` is the service's transaction type,
 * `words` what it says of it (source, description, events; service-words.ts).
 */
export function enhancedTransaction(
  tx: ConfirmedTransaction,
  type: string,
  words?: ServiceWords,
): Record<string, unknown> {
  const meta = tx.meta
  const keys = tx.transaction.message.accountKeys.map((k) => k.pubkey)
  const tokens = new Map<
    number,
    { mint: string; owner: string; decimals: number; pre: bigint; post: bigint }
  >()
  for (const [side, list] of [
    ['pre', meta?.preTokenBalances ?? []],
    ['post', meta?.postTokenBalances ?? []],
  ] as const) {
    for (const b of list) {
      const t = tokens.get(b.accountIndex) ?? {
        mint: b.mint,
        owner: b.owner ?? '',
        decimals: b.uiTokenAmount.decimals,
        pre: 0n,
        post: 0n,
      }
      t[side] = BigInt(b.uiTokenAmount.amount)
      tokens.set(b.accountIndex, t)
    }
  }
  const ownerOf = new Map([...tokens].map(([i, t]) => [keys[i] as string, t.owner]))
  const nativeTransfers: Record<string, unknown>[] = []
  const tokenTransfers: Record<string, unknown>[] = []
  const instructions = executionOrder(tx)
  for (const instruction of instructions) {
    if (!('parsed' in instruction)) continue
    const parsed = instruction.parsed as ParsedTransfer
    if (instruction.program === 'system' && parsed.type === 'transfer')
      nativeTransfers.push({
        fromUserAccount: parsed.info.source,
        toUserAccount: parsed.info.destination,
        amount: parsed.info.lamports,
      })
    else if (parsed.type === 'transferChecked' && parsed.info.tokenAmount)
      tokenTransfers.push({
        fromUserAccount: ownerOf.get(parsed.info.source) ?? '',
        toUserAccount: ownerOf.get(parsed.info.destination) ?? '',
        fromTokenAccount: parsed.info.source,
        toTokenAccount: parsed.info.destination,
        tokenAmount: parsed.info.tokenAmount.uiAmount,
        mint: parsed.info.mint,
        tokenStandard: parsed.info.tokenAmount.decimals === 0 ? 'NonFungible' : 'Fungible',
      })
  }
  return {
    description: '',
    type,
    source: 'SYSTEM_PROGRAM',
    fee: meta?.fee ?? 0,
    feePayer: keys[0],
    signature: tx.transaction.signatures[0],
    slot: tx.slot,
    timestamp: tx.blockTime,
    nativeTransfers,
    tokenTransfers,
    accountData: keys.map((account, i) => ({
      account,
      nativeBalanceChange: (meta?.postBalances[i] ?? 0) - (meta?.preBalances[i] ?? 0),
      tokenBalanceChanges: [...tokens]
        .filter(([index]) => index === i)
        .map(([, t]) => ({
          userAccount: t.owner,
          tokenAccount: account,
          mint: t.mint,
          rawTokenAmount: { tokenAmount: (t.post - t.pre).toString(), decimals: t.decimals },
        })),
    })),
    transactionError: meta?.err ?? null,
    instructions: tx.transaction.message.instructions.map((instruction, index) => ({
      programId: instruction.programId,
      innerInstructions: (meta?.innerInstructions ?? [])
        .filter((i) => i.index === index)
        .flatMap((i) => i.instructions.map((inner) => ({ programId: inner.programId }))),
    })),
    events: {},
    ...words,
  }
}
