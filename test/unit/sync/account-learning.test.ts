import { describe, expect, it } from 'vitest'
import { EnhancedTransaction } from '@shared/api/webhook-delivery'
import { enhancedTransaction } from '../../../src-main/simulator/chain/enhanced-transactions'
import { parsedTransaction } from '../../../src-main/simulator/chain/parsed-transactions'
import { SimChain } from '../../../src-main/simulator/chain/sim-chain'
import {
  accountsAtHistory,
  accountsDeliveredTo,
  accountsLeftBy,
} from '../../../src-main/sync/account-learning'
import type { InjectionAnswer } from '../../../src-main/simulator/chain/injection-answer'
import { injectionAnswer } from '../../../src-main/simulator/chain/injection-answer'
import type { Injection } from '../../../src-main/simulator/chain/injections'

// Which token accounts a transaction shows as a wallet's, read from the simulator's own
// transactions (getTransaction's jsonParsed form, and the enhanced form a webhook delivers).

function setting() {
  const chain = new SimChain({ seed: 11, clock: { mode: 'manual' }, population: 'watch-day' })
  const wallet = chain.wallets[0]!
  const inject = (injection: Injection): InjectionAnswer => {
    chain.clock.advance(60)
    const tx = chain.injectActivity(wallet, injection)
    return injectionAnswer(chain, wallet, injection.kind, tx)
  }
  const read = (signature: string) =>
    parsedTransaction(chain, wallet, chain.txBySignature(signature)!)
  return { chain, wallet, inject, read }
}

describe('accountsLeftBy', () => {
  it('an account a purchase opened and a receipt the wallet did not sign credited: open at what the newest left', () => {
    const { wallet, inject, read } = setting()
    const bought = inject({ kind: 'token-purchase' })
    const receipt = inject({ kind: 'token-receipt', mint: bought.mint!, amountRaw: 10_717n })
    // Given newest first: the newest transaction's amount wins whatever the order.
    expect(
      accountsLeftBy(wallet.address, [read(receipt.signature), read(bought.signature)]),
    ).toEqual([
      {
        address: bought.tokenAccount,
        mint: bought.mint,
        program: bought.tokenProgram,
        state: 'open',
        amount: (BigInt(bought.amountRaw!) + 10_717n).toString(),
      },
    ])
  })

  it('an account closed in a transaction is closed; opened again later, open', () => {
    const { chain, wallet, inject, read } = setting()
    const mint = chain.mintsOf(wallet).find((m) => m > 0)!
    const closed = inject({ kind: 'close-account', mint })
    expect(accountsLeftBy(wallet.address, [read(closed.signature)])).toEqual([
      { address: closed.tokenAccount, state: 'closed' },
    ])
    const reopened = inject({ kind: 'token-purchase', mint })
    expect(
      accountsLeftBy(wallet.address, [read(reopened.signature), read(closed.signature)]),
    ).toEqual([expect.objectContaining({ address: closed.tokenAccount, state: 'open' })])
  })

  it('names no account of someone else, and none for a transaction that moved no token', () => {
    const { wallet, inject, read } = setting()
    const bought = inject({ kind: 'token-purchase' })
    const failed = inject({ kind: 'failed-swap' })
    const memo = inject({ kind: 'silent' })
    const learned = accountsLeftBy(wallet.address, [read(bought.signature)])
    expect(learned.map((a) => a.address)).toEqual([bought.tokenAccount])
    expect(accountsLeftBy(wallet.address, [read(failed.signature), read(memo.signature)])).toEqual(
      [],
    )
  })
})

describe('accountsDeliveredTo', () => {
  const delivered = (read: ReturnType<typeof setting>['read'], signature: string) =>
    EnhancedTransaction.parse(enhancedTransaction(read(signature), 'TRANSFER'))

  it('an account watching does not know is learned with the holdings of its mint when it is the only one', () => {
    const { wallet, inject, read } = setting()
    const receipt = inject({ kind: 'token-receipt', mint: 4, amountRaw: 700n })
    const event = delivered(read, receipt.signature)
    const holdings = {
      takenAtSec: 0,
      balances: [
        {
          mint: receipt.mint!,
          balance: 0.0007,
          decimals: 6,
          tokenProgram: 'spl-token',
          symbol: 'X',
          name: 'X',
          pricePerToken: 1,
          usdValue: 0,
          logoUri: '',
        },
      ],
      nfts: [],
    }
    expect(accountsDeliveredTo(wallet.address, [event], new Set(), new Set(), holdings)).toEqual([
      {
        address: receipt.tokenAccount,
        mint: receipt.mint,
        program: null,
        state: 'open',
        amount: '700',
      },
    ])
    // Another account of the mint is watched: its share of the holdings is not known.
    expect(
      accountsDeliveredTo(wallet.address, [event], new Set(), new Set([receipt.mint!]), holdings),
    ).toEqual([expect.objectContaining({ address: receipt.tokenAccount, amount: null })])
    // Watched already: nothing to learn.
    expect(
      accountsDeliveredTo(
        wallet.address,
        [event],
        new Set([receipt.tokenAccount!]),
        new Set(),
        holdings,
      ),
    ).toEqual([])
  })
})

describe('accountsAtHistory: where a revealed account is watched from', () => {
  const program = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
  const open = (address: string, amount: string) => ({
    address,
    mint: 'M',
    program,
    state: 'open',
    amount,
  })

  it('at what it holds when the stored history left the wallet that much', () => {
    expect(accountsAtHistory('M', [{ address: 'A', program, amount: 10_717n }], 10_717n)).toEqual([
      open('A', '10717'),
    ])
  })

  it('at what the history left when it holds more: a transaction the history lacks moved it', () => {
    expect(accountsAtHistory('M', [{ address: 'A', program, amount: 10_717n }], 0n)).toEqual([
      open('A', '0'),
    ])
    expect(
      accountsAtHistory(
        'M',
        [
          { address: 'A', program, amount: 7n },
          { address: 'B', program, amount: 5n },
        ],
        9n,
      ),
    ).toEqual([open('A', '9'), open('B', '0')])
  })

  it('an amount it could not read is not taken as explained', () => {
    expect(accountsAtHistory('M', [{ address: 'A', program, amount: null }], 0n)).toEqual([
      open('A', '0'),
    ])
  })
})
