import { InvalidInputError } from '@shared/ipc/ipc-errors'
import {
  LookupRequest,
  LookupResult,
  type LookupAnswer,
  type LookupCacheEntry,
  type LookupPlan,
  type Recognised,
} from '@shared/ipc/lookup-schemas'
import type { GetTokenAccountsResult } from '@shared/api/das'
import type { Mirror } from '../db/mirror'
import type { CachedLookup, RecordedCall } from '../db/stores/lookup-cache-store'
import { accountsListedBy } from '../sync/account-learning'
import type { WalletCall } from '../sync/service-caller'
import type { SyncEngine } from '../sync/sync-engine'
import { fetchLookupResult } from './lookup-fetch'
import { imagesOfResult } from './lookup-images'
import { planLookup } from './lookup-plan'
import { lookupRequestKey } from './lookup-request-key'
import { lookupTitle } from './lookup-title'
import { recognisePasted } from './recognise-pasted'

/** The purpose the ledger names for the look-up desk's calls (its `stream` column). */
export const LOOKUP_PURPOSE = 'lookup'

/** Entries `lookup:recent` lists. */
const RECENT_ENTRIES = 50

/** What the desk works with; read at each use (the data source can change). */
export interface LookupDeskSources {
  mirror(): Mirror
  /** The engine whose calls are paced, retried, budgeted and recorded in the ledger. */
  engine(): Promise<Pick<SyncEngine, 'callAs'>>
  /** The image cache's path for an image address ('' when it will not serve it). */
  imageUrlFor(uri: string): string
  nowSec(): number
}

/**
 * The look-up desk: recognises a pasted text, prices a look-up before it runs, runs it
 * through the sync engine's metered road and keeps the answer in the mirror's cache, to
 * be reopened offline for free.
 */
export class LookupDesk {
  readonly #s: LookupDeskSources
  constructor(sources: LookupDeskSources) {
    this.#s = sources
  }

  /** What a pasted text is: free and offline. */
  recognise(text: string): Promise<Recognised> {
    return recognisePasted(text, this.#s.mirror().lookups)
  }

  /** The plan of a look-up, with its cached answer's time and cost when one is kept. */
  async plan(request: LookupRequest): Promise<LookupPlan> {
    const cached = await this.#s.mirror().lookups.get(lookupRequestKey(request))
    return planLookup(
      request,
      cached === null ? null : { fetchedAtSec: cached.fetchedAtSec, credits: cached.credits },
    )
  }

  /** The cached answer of a request, or null: never calls the service. */
  async cached(request: LookupRequest): Promise<LookupAnswer | null> {
    const entry = await this.#s.mirror().lookups.get(lookupRequestKey(request))
    return entry === null ? null : this.#answerOf(entry)
  }

  /** The cached look-up entry of a request, with the calls that produced it, or null. */
  cachedEntry(request: LookupRequest): Promise<CachedLookup | null> {
    return this.#s.mirror().lookups.get(lookupRequestKey(request))
  }

  /**
   * Runs a look-up: its cached answer unless `refresh`; otherwise its planned calls, each
   * in the ledger under the look-up purpose, and the answer is cached. A plan that needs
   * confirmation (validity proof, unknown price) runs only when `confirmed`.
   */
  async run(input: {
    request: LookupRequest
    refresh: boolean
    confirmed: boolean
  }): Promise<LookupAnswer> {
    const { request } = input
    const plan = await this.plan(request)
    if (!input.refresh) {
      const cached = await this.cached(request)
      if (cached !== null) return cached
    }
    if (plan.needsConfirmation && !input.confirmed) {
      throw new InvalidInputError(
        `${plan.summary}. This look-up runs only once its cost is confirmed.`,
        { credits: plan.credits },
      )
    }
    const mirror = this.#s.mirror()
    const engine = await this.#s.engine()
    const calls: RecordedCall[] = []
    let credits = 0
    const address = request.view === 'wallet' ? request.address : null
    const call: WalletCall = async (operation, callInput, signal) => {
      const recorded: RecordedCall = { operation, input: callInput }
      calls.push(recorded)
      try {
        const output = await engine.callAs(
          { address, purpose: LOOKUP_PURPOSE, onCredits: (c) => (credits += c) },
          operation,
          callInput,
          signal,
        )
        recorded.output = output
        return output
      } catch (error) {
        recorded.errorName = error instanceof Error ? error.name : 'Error'
        throw error
      }
    }
    const result = await fetchLookupResult(
      request,
      call,
      async (wallet) => (await mirror.writer.walletId(wallet)) !== null,
    )
    const entry: CachedLookup = {
      requestKey: lookupRequestKey(request),
      view: request.view,
      request,
      answer: result,
      calls,
      title: lookupTitle(request, result),
      fetchedAtSec: this.#s.nowSec(),
      credits,
    }
    await mirror.lookups.put(entry)
    if (result.view === 'token-accounts') await watchListedAccounts(mirror, result.page)
    return { ...(await this.#answerOf(entry)), fromCache: false }
  }

  /** The newest cached look-ups first. */
  async recent(): Promise<LookupCacheEntry[]> {
    const entries = await this.#s.mirror().lookups.recent(RECENT_ENTRIES)
    return entries.flatMap((e) => {
      const request = LookupRequest.safeParse(e.request)
      if (!request.success) return []
      return [
        { request: request.data, title: e.title, fetchedAtSec: e.fetchedAtSec, credits: e.credits },
      ]
    })
  }

  async #answerOf(entry: CachedLookup): Promise<LookupAnswer> {
    const request = LookupRequest.parse(entry.request)
    let result = LookupResult.parse(entry.answer)
    if (result.view === 'wallet' && request.view === 'wallet') {
      // Whether it is watched is now's answer, not the fetch's.
      const watched = (await this.#s.mirror().writer.walletId(request.address)) !== null
      result = { ...result, watched }
    }
    return {
      request,
      result,
      fetchedAtSec: entry.fetchedAtSec,
      credits: entry.credits,
      fromCache: true,
      images: imagesOfResult(result, (uri) => this.#s.imageUrlFor(uri)),
    }
  }
}

/**
 * What a look-up shows of a watched wallet, watching learns: its token accounts a listing
 * names are watched from now on, each with the amount listed.
 */
async function watchListedAccounts(mirror: Mirror, page: GetTokenAccountsResult): Promise<void> {
  for (const [owner, learned] of accountsListedBy(page.token_accounts)) {
    const walletId = await mirror.writer.walletId(owner)
    if (walletId !== null) await mirror.watchState.learnTokenAccounts(walletId, learned, false)
  }
}
