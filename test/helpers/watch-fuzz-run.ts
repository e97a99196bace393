import type { WatchCadence } from '@shared/ipc/settings-schemas'
import { DEFAULT_WATCH_CADENCE } from '../../src-main/app/app-settings'
import type { InjectionAnswer } from '../../src-main/simulator/chain/injection-answer'
import type { Injection } from '../../src-main/simulator/chain/injections'
import { hash32, Rng } from '../../src-main/simulator/chain/prng'
import type { SimChain, SimWallet } from '../../src-main/simulator/chain/sim-chain'
import {
  expectedAlerts,
  firedAlerts,
  oracleRules,
  rulesWithOracles,
  type RuleOracle,
} from './alert-oracles'
import { startLookProxy, type LookHooks, type LookProxy } from './look-proxy'
import { readMirror } from './mirror-contents'
import { readWalletTruth } from './sim-truth'
import { startWatchRun, type WatchRun } from './watch-run'

// The watch fuzz (issue 47): seeded days on the virtual clock over the watch-day
// population, at the default cadence, with the patterns real wallets see injected at random
// moments beside the population's own live activity — receipts the wallet never signed into
// accounts it opened minutes before, purchases of new mints, closes and re-opens, Token-2022
// accounts, fees paid by others, silent transactions, failed ones that move only the fee,
// bursts while a balance look is in flight and changes landing between a look and its sync
// (a proxy in front of the simulator injects them then). After each day, once what landed
// in it is due, every wallet's mirror must equal the simulator's truth; every transaction
// must have reached the mirror within the bound of what finds it (watch-bounds.ts); and
// every alert an oracle reads off the truth must have fired exactly once.

/** What was injected, or `live` for the population's own activity. */
export type FuzzPattern =
  | 'purchase'
  | 'receipt into a just-opened account'
  | 'token-2022'
  | 'receipt into a known account'
  | 'close'
  | 'reopen by purchase'
  | 'reopen by someone else'
  | 'airdrop'
  | 'receipt into a new account'
  | 'silent memo'
  | 'silent failed'
  | 'failed swap'
  | 'burst during a look'
  | 'between a look and its sync'
  | 'live'
  | 'live compressed'

/** How a pattern is found, which bounds how soon (the clocks of watch-bounds.ts). */
type FoundBy = 'look' | 'list' | 'compressed' | 'full check'

const FOUND_BY: Record<FuzzPattern, FoundBy> = {
  purchase: 'look',
  'receipt into a just-opened account': 'look',
  'token-2022': 'look',
  'receipt into a known account': 'look',
  close: 'look',
  'reopen by purchase': 'look',
  'reopen by someone else': 'list',
  airdrop: 'list',
  'receipt into a new account': 'list',
  'silent memo': 'full check',
  'silent failed': 'full check',
  'failed swap': 'look',
  'burst during a look': 'look',
  'between a look and its sync': 'look',
  live: 'look',
  'live compressed': 'compressed',
}

/** One transaction that came while watching. */
export interface FuzzChange {
  wallet: string
  signature: string
  pattern: FuzzPattern
  landedSec: number
  /** When a round found it in the mirror; null: not found. */
  detectedSec: number | null
  /** It must be in the mirror this long after it landed. */
  boundSec: number
}

export interface WatchFuzzResult {
  seed: number
  days: number
  changes: FuzzChange[]
  /** Changes not in the mirror within their bound (the pattern missed). */
  late: FuzzChange[]
  /** After each day, the first wallet whose mirror differs from the truth, and what it lacks. */
  mismatches: string[]
  alerts: { expected: number; fired: number; missed: string[]; extra: string[]; repeated: string[] }
  /** Credits spent watching (the first full sync apart), and per day. */
  watchingCredits: number
  creditsPerDay: number
  /** Scheduled injections the chain refused (a wallet short of SOL, no mint left). */
  skipped: number
}

/** Injections a day, at random moments of its first 23½ hours. */
const EVENTS_PER_DAY = 40
/** Relative weight of each scheduled pattern. */
const WEIGHTS: [Scheduled, number][] = [
  ['purchase', 3],
  ['receipt into a just-opened account', 3],
  ['token-2022', 2],
  ['receipt into a known account', 3],
  ['close', 3],
  ['airdrop', 1],
  ['receipt into a new account', 1],
  ['silent memo', 1],
  ['silent failed', 1],
  ['failed swap', 2],
  ['burst during a look', 2],
  ['between a look and its sync', 2],
]

/** The patterns a day schedules (each at least once); re-opens follow closes. */
export type Scheduled = Exclude<
  FuzzPattern,
  'reopen by purchase' | 'reopen by someone else' | 'live' | 'live compressed'
>

/** Every scheduled pattern, in the order the README's table lists them. */
export const SCHEDULED_PATTERNS: readonly Scheduled[] = WEIGHTS.map(([name]) => name)

interface FuzzEvent {
  atSec: number
  run: () => void
}

/**
 * Runs `days` seeded days of the watch fuzz and reports what reached the mirror, when, and
 * what the alert rules fired against the oracle.
 *
 * @example
 * const fuzz = await runWatchFuzz({ seed: 1 })
 * fuzz.late // [] when every pattern was found in time
 */
export async function runWatchFuzz(options: {
  seed: number
  days?: number
  cadence?: WatchCadence
  /** The rules whose alerts are checked (all ten of the alerts bench by default). */
  oracles?: (all: RuleOracle[]) => RuleOracle[]
  onDay?: (day: number, credits: number) => void
}): Promise<WatchFuzzResult> {
  const days = options.days ?? 1
  const cadence = options.cadence ?? DEFAULT_WATCH_CADENCE
  const oracles = (options.oracles ?? ((all) => all))(rulesWithOracles())
  const tagged = new Set<string>()
  // The app calls the simulator through the proxy that injects during its balance looks.
  const proxied: { look?: LookProxy } = {}
  const run = await startWatchRun({
    seed: options.seed,
    cadence,
    serviceUrl: async (simUrl) => {
      proxied.look = await startLookProxy(simUrl)
      return proxied.look.url
    },
    alerts: oracleRules(oracles, tagged),
  })
  const look = proxied.look as LookProxy
  try {
    return await fuzzDays(run, look, { ...options, days, cadence, oracles, tagged })
  } finally {
    await look.close()
    await run.close()
  }
}

async function fuzzDays(
  run: WatchRun,
  look: LookProxy,
  o: {
    seed: number
    days: number
    cadence: WatchCadence
    oracles: RuleOracle[]
    tagged: ReadonlySet<string>
    onDay?: (day: number, credits: number) => void
  },
): Promise<WatchFuzzResult> {
  const { sim, clock, wallets, scheduler } = run
  const chain = sim.chain
  const boundOf = (by: FoundBy): number =>
    ({
      look: 2 * o.cadence.checkEverySec,
      list: o.cadence.tokenAccountsEverySec + o.cadence.checkEverySec,
      compressed: o.cadence.compressedEverySec + o.cadence.checkEverySec,
      'full check': o.cadence.backstopEverySec + o.cadence.checkEverySec,
    })[by]
  // Round 0 meets every wallet: a full sync of each, which watching does not repeat.
  await scheduler.runRound()
  const firstSyncCredits = run.credits()
  const patternOf = new Map<string, FuzzPattern>()
  const changes = new Map<string, FuzzChange>()
  const countAt = new Map(wallets.map((w) => [w.address, chain.txCount(w)]))
  let skipped = 0
  const inject = (wallet: SimWallet, pattern: FuzzPattern, injection: Injection) => {
    try {
      const answer = sim.inject(wallet, injection)
      patternOf.set(answer.signature, pattern)
      return answer
    } catch {
      skipped++
      return null
    }
  }
  /** Every transaction the chain gained since the last look at it, as a change to find. */
  const collect = (): void => {
    for (const w of wallets) {
      const count = chain.txCount(w)
      for (let i = countAt.get(w.address) ?? count; i < count; i++) {
        const tx = chain.tx(w, i)
        const pattern =
          patternOf.get(tx.signature) ?? (tx.kind === 'compress' ? 'live compressed' : 'live')
        changes.set(tx.signature, {
          wallet: w.address,
          signature: tx.signature,
          pattern,
          landedSec: tx.timestamp,
          detectedSec: null,
          boundSec: boundOf(FOUND_BY[pattern]),
        })
      }
      countAt.set(w.address, count)
    }
  }
  const mismatches: string[] = []
  /** One round at the cadence, then what it brought into the mirror. */
  const round = async (roundAt: number, hooks: LookHooks[]): Promise<void> => {
    clock.advance(roundAt - clock.nowSec())
    const armed = hooks.splice(0)
    if (armed.length > 0)
      look.onNextLook({
        before: () => armed.forEach((h) => h.before?.()),
        after: () => armed.forEach((h) => h.after?.()),
      })
    collect()
    await scheduler.runRound()
    collect()
    const pending = [...changes.values()].filter((c) => c.detectedSec === null)
    const stored = await run.storedOf(pending.map((c) => c.signature))
    for (const c of pending) if (stored.has(c.signature)) c.detectedSec = clock.nowSec()
  }
  // What follows a pattern (a re-open after a close) may fall after its day: it runs the next.
  const queue: FuzzEvent[] = []
  for (let day = 0; day < o.days; day++) {
    const dayStart = clock.nowSec()
    const rng = new Rng(hash32(o.seed, 0xf022, day))
    const hooks: LookHooks[] = []
    const actions = fuzzActions(chain, rng, inject, queue, hooks)
    for (let k = 0; k < EVENTS_PER_DAY; k++) {
      // Every pattern once a day, the rest as the weights draw them.
      const name = (WEIGHTS[k] ?? WEIGHTS[rng.weighted(WEIGHTS.map(([, w]) => w))])?.[0]
      queue.push({
        atSec: dayStart + rng.int(60, 84_600),
        // A wallet the pattern fits now (one with an open account to close, SOL to buy).
        run: () => {
          for (let tries = 0; tries < 10; tries++)
            if (actions[name as Scheduled](rng.pick(wallets))) return
          skipped++
        },
      })
    }
    while (clock.nowSec() < dayStart + 86_400) {
      const roundAt = clock.nowSec() + o.cadence.checkEverySec
      queue.sort((a, b) => a.atSec - b.atSec)
      while (queue[0] !== undefined && queue[0].atSec <= roundAt) {
        const event = queue.shift() as FuzzEvent
        clock.advance(Math.max(0, event.atSec - clock.nowSec()))
        event.run()
      }
      await round(roundAt, hooks)
    }
    // The day is judged once what landed in it is due: a new account someone else opened in
    // its last hour is found by a listing after the day ends, within its bound. Nothing is
    // injected meanwhile; the population's own activity goes on.
    const due = () =>
      [...changes.values()].some(
        (c) => c.detectedSec === null && c.landedSec + c.boundSec > clock.nowSec(),
      )
    while (due()) await round(clock.nowSec() + o.cadence.checkEverySec, hooks)
    const mismatch = await run.firstMismatch()
    if (mismatch !== null)
      mismatches.push(`day ${day + 1}: ${mismatch}${await lacking(run, changes)}`)
    o.onDay?.(day + 1, run.credits() - firstSyncCredits)
  }
  const newSignatures = new Map<string, string[]>()
  for (const c of changes.values())
    newSignatures.set(c.wallet, [...(newSignatures.get(c.wallet) ?? []), c.signature])
  const foundAt = new Map(
    [...changes.values()].map((c) => [c.signature, c.detectedSec ?? Infinity]),
  )
  const expected = await expectedAlerts(
    sim.url,
    run.mirror,
    o.oracles,
    newSignatures,
    o.tagged,
    foundAt,
  )
  const fired = await firedAlerts(run.mirror)
  const rules = await run.mirror.alertRules.list()
  /** `ruleId:signature` as the rule's trigger, the wallet, the signature and its pattern. */
  const named = (key: string): string => {
    const [id, signature = ''] = key.split(':')
    const c = changes.get(signature)
    const trigger = rules.find((r) => String(r.id) === id)?.trigger ?? `rule ${id}`
    return `${trigger}: wallet ${c?.wallet ?? '?'}, signature ${signature} (${c?.pattern ?? 'before watching'})`
  }
  const all = [...changes.values()]
  const watchingCredits = run.credits() - firstSyncCredits
  return {
    seed: o.seed,
    days: o.days,
    changes: all,
    late: all.filter((c) => c.detectedSec === null || c.detectedSec - c.landedSec > c.boundSec),
    mismatches,
    alerts: {
      expected: expected.size,
      fired: [...fired.values()].reduce((sum, n) => sum + n, 0),
      missed: [...expected].filter((k) => !fired.has(k)).map(named),
      extra: [...fired.keys()].filter((k) => !expected.has(k)).map(named),
      repeated: [...fired].filter(([, n]) => n > 1).map(([k]) => named(k)),
    },
    watchingCredits,
    creditsPerDay: watchingCredits / o.days,
    skipped,
  }
}

/**
 * What the mirror lacks of the truth, wallet by wallet: each transaction (with its
 * pattern) and each holding that differs (with the patterns that moved that mint).
 */
async function lacking(run: WatchRun, changes: ReadonlyMap<string, FuzzChange>): Promise<string> {
  const out: string[] = []
  for (const w of run.wallets) {
    const truth = await readWalletTruth(run.sim.url, w.address)
    const signatures = truth.history.map((e) => e.signature)
    const stored = await run.storedOf(signatures)
    for (const s of signatures)
      if (!stored.has(s))
        out.push(`${w.address} lacks ${s} (${changes.get(s)?.pattern ?? 'before watching'})`)
    const mirror = await readMirror(run.db, w.address)
    const held = new Map(mirror.balances.map((b) => [b.mint, b.balance_text]))
    for (const b of truth.balances) {
      const shown = held.get(b.mint) ?? '0'
      if (Number(shown) === Number(b.text)) continue
      const movedBy = truth.history
        .filter((e) => e.balanceChanges.some((c) => c.mint === b.mint))
        .map((e) => changes.get(e.signature)?.pattern)
        .filter((p) => p !== undefined)
      out.push(
        `${w.address} holds ${b.text} of ${b.mint}, the mirror ${shown} (moved by: ${movedBy.join(', ') || 'nothing while watching'})`,
      )
    }
  }
  return out.length === 0 ? '' : `; ${out.join('; ')}`
}

/**
 * The scheduled patterns, each choosing what it injects from the chain as it is when it
 * runs (a mint the wallet never held, an account it has open), and queueing what follows.
 */
function fuzzActions(
  chain: SimChain,
  rng: Rng,
  inject: (wallet: SimWallet, pattern: FuzzPattern, injection: Injection) => InjectionAnswer | null,
  queue: FuzzEvent[],
  hooks: LookHooks[],
): Record<Scheduled, (wallet: SimWallet) => boolean> {
  const now = () => chain.clock.nowSec()
  const open = (w: SimWallet) =>
    chain.mintsOf(w).filter((m) => m > 0 && (chain.balancesNow(w)[m] ?? 0n) > 0n)
  const unheld = (w: SimWallet, only?: (m: number) => boolean) =>
    chain.mints
      .filter((m) => m.index > 0 && !chain.mintsOf(w).includes(m.index))
      .map((m) => m.index)
      .filter((m) => only?.(m) ?? true)
  const pick = (list: readonly number[]): number | null =>
    list.length === 0 ? null : rng.pick(list)
  const later = (fromSec: number, toSec: number, run: () => void) =>
    queue.push({ atSec: now() + rng.int(fromSec, toSec), run })
  const receiptInto = (w: SimWallet, pattern: FuzzPattern, mint: number | null): boolean =>
    mint !== null && inject(w, pattern, { kind: 'token-receipt', mint }) !== null
  const buyThenReceive = (w: SimWallet, pattern: FuzzPattern, mint: number | null): boolean => {
    if (mint === null || !inject(w, 'purchase', { kind: 'token-purchase', mint })) return false
    later(20, 480, () => receiptInto(w, pattern, mint))
    return true
  }
  const is2022 = (m: number) => chain.mints[m]?.tokenProgram === 'token-2022'
  const buy = (w: SimWallet, pattern: FuzzPattern, mint: number | null): boolean =>
    mint !== null && inject(w, pattern, { kind: 'token-purchase', mint }) !== null
  return {
    purchase: (w) => buy(w, 'purchase', pick(unheld(w))),
    'receipt into a just-opened account': (w) =>
      buyThenReceive(w, 'receipt into a just-opened account', pick(unheld(w))),
    'token-2022': (w) => {
      const held = open(w).filter(is2022)
      return held.length > 0
        ? receiptInto(w, 'token-2022', rng.pick(held))
        : buyThenReceive(w, 'token-2022', pick(unheld(w, is2022)))
    },
    'receipt into a known account': (w) =>
      receiptInto(w, 'receipt into a known account', pick(open(w))),
    close: (w) => {
      const mint = pick(open(w))
      if (mint === null || !inject(w, 'close', { kind: 'close-account', mint })) return false
      if (rng.float() < 0.5) later(120, 2_400, () => buy(w, 'reopen by purchase', mint))
      else later(120, 2_400, () => receiptInto(w, 'reopen by someone else', mint))
      return true
    },
    airdrop: (w) => {
      const mint = pick(unheld(w))
      return mint !== null && inject(w, 'airdrop', { kind: 'token-airdrop', mint }) !== null
    },
    'receipt into a new account': (w) =>
      receiptInto(w, 'receipt into a new account', pick(unheld(w))),
    'silent memo': (w) => inject(w, 'silent memo', { kind: 'silent', variant: 'memo' }) !== null,
    'silent failed': (w) =>
      inject(w, 'silent failed', { kind: 'silent', variant: 'failed' }) !== null,
    'failed swap': (w) => inject(w, 'failed swap', { kind: 'failed-swap' }) !== null,
    // One transaction the look sees, two it misses: one failed, one received.
    'burst during a look': (w) => {
      if (open(w).length === 0) return false
      hooks.push({
        before: () => void receiptInto(w, 'burst during a look', pick(open(w))),
        after: () => {
          inject(w, 'burst during a look', { kind: 'failed-swap' })
          receiptInto(w, 'burst during a look', pick(open(w)))
        },
      })
      return true
    },
    // The wallet buys now, so this round syncs it; a receipt lands after the look read it.
    'between a look and its sync': (w) => {
      const mint = pick(unheld(w))
      if (!buy(w, 'purchase', mint)) return false
      const other = pick(open(w).filter((m) => m !== mint))
      hooks.push({
        after: () =>
          void receiptInto(
            w,
            'between a look and its sync',
            rng.float() < 0.5 || other === null ? mint : other,
          ),
      })
      return true
    },
  }
}
