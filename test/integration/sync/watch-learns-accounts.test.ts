import { afterEach, describe, expect, it } from 'vitest'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import type { InjectionAnswer } from '../../../src-main/simulator/chain/injection-answer'
import type { Injection } from '../../../src-main/simulator/chain/injections'
import type { WatchDayProfileId } from '../../../src-main/simulator/chain/wallet-profiles'
import type { CheckedWallet } from '../../../src-main/sync/watch-scheduler'
import { ENGINES, type SyncFixture, type TestEngine } from '../../helpers/sync-fixture'
import { startWatchFixture } from '../../helpers/watch-fixture'
import { expectMirrorEqualsTruth } from './mirror-truth-assertions'

// What the mirror learns, watching learns (issue 47): a token account a synced transaction
// shows as the wallet's is watched from that write, with the amount the transaction left,
// so a receipt into it that the wallet neither signed nor paid for is found at the next
// balance look, not at the next listing of the wallet's accounts; an account closed in a
// transaction stops being watched; and an account a balances answer reveals is watched at
// once. The listing stays the bound only for an account someone else opened for the wallet.

const CADENCE: WatchCadence = {
  isWatching: true,
  checkEverySec: 60,
  tokenAccountsEverySec: 3_600,
  compressedEverySec: 600,
  backstopEverySec: 86_400,
}

const fixtures: SyncFixture[] = []
afterEach(async () => {
  while (fixtures.length > 0) await fixtures.pop()?.stop()
})

async function start(
  engine: TestEngine,
  profile: WatchDayProfileId = 'watch-idle',
  cadence: WatchCadence = CADENCE,
) {
  const watching = await startWatchFixture(engine, profile, cadence, fixtures)
  const { fx, address, scheduler } = watching
  const wallet = fx.sim.chain.walletByAddress(address)!
  const walletId = (await fx.mirror.writer.walletId(address))!
  /** Moves the clock one cadence and runs a round; returns what it synced for the wallet. */
  const nextRound = async (): Promise<CheckedWallet | undefined> =>
    (await watching.nextRound()).checked.find((c) => c.address === address)
  const inject = (injection: Injection): InjectionAnswer => fx.sim.inject(wallet, injection)
  /** The wallet's watched token accounts: address → what was last observed on it. */
  const watched = async (): Promise<Map<string, string | null>> =>
    new Map(
      (await fx.mirror.watchState.accounts([walletId]))
        .filter((a) => a.kind === 'token')
        .map((a) => [a.address, a.observed]),
    )
  // Watching starts on a mirrored wallet; the first round lists its accounts.
  await scheduler.runRound()
  return { ...watching, wallet, nextRound, inject, watched }
}

describe.each(ENGINES)('watching learns the accounts the mirror learns (on %s)', (engine) => {
  it('a receipt the wallet did not sign, into an account its own purchase opened minutes before, is synced at the next look', async () => {
    const { address, nextRound, inject, watched, isStored, fx } = await start(engine)
    await nextRound()
    const bought = inject({ kind: 'token-purchase' })
    const boughtRound = await nextRound()
    expect(boughtRound?.reasons).toEqual(['balance'])
    expect(await isStored(bought.signature)).toBe(true)
    // Watched from the write, with the amount the purchase left.
    expect((await watched()).get(bought.tokenAccount!)).toBe(bought.amountRaw)

    await nextRound()
    const receipt = inject({ kind: 'token-receipt', mint: bought.mint!, amountRaw: 10_717n })
    expect(receipt.tokenAccount).toBe(bought.tokenAccount)
    const receiptRound = await nextRound()
    // The learned account's look moved: the next round found it, long before a listing.
    expect(receiptRound?.reasons).toEqual(['balance'])
    expect(await isStored(receipt.signature)).toBe(true)
    expect((await watched()).get(bought.tokenAccount!)).toBe(
      (BigInt(bought.amountRaw!) + 10_717n).toString(),
    )
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })

  it('an account closed in a transaction stops being watched; a purchase of the mint watches it again', async () => {
    const { address, nextRound, inject, watched, isStored, fx, wallet } = await start(engine)
    const held = fx.sim.chain.mintsOf(wallet).filter((m) => m > 0)[0]!
    const account = fx.sim.chain.tokenAccountAddress(wallet, held)
    expect((await watched()).has(account)).toBe(true)
    const closed = inject({ kind: 'close-account', mint: held })
    await nextRound()
    expect(await isStored(closed.signature)).toBe(true)
    expect((await watched()).has(account)).toBe(false)

    const reopened = inject({ kind: 'token-purchase', mint: held })
    await nextRound()
    expect(await isStored(reopened.signature)).toBe(true)
    expect((await watched()).get(account)).toBe(reopened.amountRaw)
    const receipt = inject({ kind: 'token-receipt', mint: held })
    expect((await nextRound())?.reasons).toEqual(['balance'])
    expect(await isStored(receipt.signature)).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })

  it('an account a balances answer reveals is watched at once: a receipt into it is not left to the listing', async () => {
    const { address, nextRound, inject, watched, isStored, fx, scheduler } = await start(engine)
    await nextRound()
    // Someone opens an account for the wallet; a full sync (the person asked) reads it.
    const airdrop = inject({ kind: 'token-airdrop' })
    await scheduler.syncNow(address)
    fx.sim.chain.clock.advance(CADENCE.checkEverySec)
    await scheduler.runRound()
    expect(await isStored(airdrop.signature)).toBe(true)
    expect((await watched()).get(airdrop.tokenAccount!)).toBe(airdrop.amountRaw)

    const receipt = inject({ kind: 'token-receipt', mint: airdrop.mint! })
    expect((await nextRound())?.reasons).toEqual(['balance'])
    expect(await isStored(receipt.signature)).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })

  it('an account a balances answer reveals holding more than the history left is watched from the history: the receipt that reopened it is synced', async () => {
    const { address, nextRound, inject, watched, isStored, fx, wallet } = await start(engine)
    const [first, second] = fx.sim.chain.mintsOf(wallet).filter((m) => m > 0)
    const account = fx.sim.chain.tokenAccountAddress(wallet, first!)
    inject({ kind: 'close-account', mint: first! })
    inject({ kind: 'close-account', mint: second! })
    await nextRound()
    expect((await watched()).has(account)).toBe(false)
    // Someone sends the first mint back: its account opens again, and only it is named.
    const receipt = inject({ kind: 'token-receipt', mint: first! })
    expect(receipt).toMatchObject({ tokenAccount: account, tokenAccountState: 'opened' })
    // Before any listing, the wallet buys the second back: a mint the look did not read, so
    // the balances endpoint answers, holding the first mint in an account the history
    // left closed.
    const bought = inject({ kind: 'token-purchase', mint: second! })
    await nextRound()
    expect(await isStored(bought.signature)).toBe(true)
    expect(await isStored(receipt.signature)).toBe(false)
    expect((await watched()).get(account)).toBe('0')
    // The next look sees it move from what the history left, and reads what moved it.
    expect((await nextRound())?.reasons).toEqual(['balance'])
    expect(await isStored(receipt.signature)).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })

  it('an account someone else opened without naming the wallet waits for the listing, at most its cadence', async () => {
    const { address, nextRound, inject, isStored, fx } = await start(engine)
    const listedAt = fx.sim.chain.clock.nowSec()
    await nextRound()
    const unheld = fx.sim.chain.mints.find(
      (m) =>
        m.index > 0 &&
        !fx.sim.chain.mintsOf(fx.sim.chain.walletByAddress(address)!).includes(m.index),
    )!
    const receipt = inject({ kind: 'token-receipt', mint: unheld.address })
    expect(receipt.tokenAccountState).toBe('opened')
    let found: CheckedWallet | undefined
    while (!found) {
      found = await nextRound()
      expect(fx.sim.chain.clock.nowSec() - receipt.timestamp).toBeLessThanOrEqual(
        CADENCE.tokenAccountsEverySec,
      )
    }
    expect(found.reasons).toEqual(['new-token-account'])
    expect(found.detectedSec).toBe(listedAt + CADENCE.tokenAccountsEverySec)
    expect(await isStored(receipt.signature)).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })
  it('a transaction found below one stored since is read from below it: a memo under a receipt, at the full check', async () => {
    const hourly = { ...CADENCE, backstopEverySec: 3_600 }
    const { address, nextRound, inject, isStored, fx, wallet } = await start(
      engine,
      'watch-idle',
      hourly,
    )
    const checkAt = fx.sim.chain.clock.nowSec() + hourly.backstopEverySec
    await nextRound()
    const memo = inject({ kind: 'silent' })
    await nextRound()
    const held = fx.sim.chain.mintsOf(wallet).filter((m) => m > 0)[0]!
    const receipt = inject({ kind: 'token-receipt', mint: held })
    expect((await nextRound())?.reasons).toEqual(['balance'])
    expect(await isStored(receipt.signature)).toBe(true)
    expect(await isStored(memo.signature)).toBe(false)
    let found: CheckedWallet | undefined
    while (fx.sim.chain.clock.nowSec() < checkAt) found = (await nextRound()) ?? found
    expect(found?.reasons).toEqual(['backstop-signature'])
    expect(await isStored(memo.signature)).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })

  it('an account the listing found, whose transaction lies below one stored since and cannot be derived, is read from below it', async () => {
    const { address, nextRound, inject, isStored, fx, wallet } = await start(engine)
    const listAt = fx.sim.chain.clock.nowSec() + CADENCE.tokenAccountsEverySec
    await nextRound()
    // A mint the mirror has no symbol for: the derivation declines and the endpoints answer.
    const airdrop = inject({ kind: 'token-airdrop' })
    await nextRound()
    const held = fx.sim.chain.mintsOf(wallet).filter((m) => m > 0)[0]!
    const receipt = inject({ kind: 'token-receipt', mint: held })
    await nextRound()
    expect(await isStored(receipt.signature)).toBe(true)
    expect(await isStored(airdrop.signature)).toBe(false)
    let found: CheckedWallet | undefined
    while (fx.sim.chain.clock.nowSec() < listAt) found = (await nextRound()) ?? found
    expect(found?.reasons).toEqual(['new-token-account'])
    expect(await isStored(airdrop.signature)).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })
})
