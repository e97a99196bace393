import type { Identity } from '@shared/api/wallet-rest'
import { DEFAULT_NAMES_REFRESH_DAYS } from '@shared/ipc/settings-schemas'
import type { AddressName, NamesStore, WalletFunding } from '../db/stores/names-store'
import { NotFoundError, PlanError } from '../service/service-errors'
import type { WalletCall } from './service-caller'

/** batch-identity takes up to 100 addresses a call (docs/service.md, Wallet REST): 100 credits. */
const BATCH_ADDRESSES = 100

/** How often names are asked again when nobody set it: the settings' default. */
export const DEFAULT_NAMES_REFRESH_SEC = DEFAULT_NAMES_REFRESH_DAYS * 86_400

export interface FillNamesOptions {
  walletId: number
  address: string
  nowSec: number
  /** A name asked within this many seconds is not asked again. */
  refreshSec: number
  signal?: AbortSignal
}

/**
 * Asks the service what a watched wallet is called (once per refresh period) and who
 * funded it (once ever: the first incoming SOL transfer cannot change). Answers "no name"
 * and "not on this plan" are kept too, so the same question costs nothing again until the
 * period ends. Resolves to the calls made.
 *
 * @example
 * await fillWalletNames(call, names, { walletId, address, nowSec, refreshSec: 30 * 86_400 })
 */
export async function fillWalletNames(
  call: WalletCall,
  names: NamesStore,
  options: FillNamesOptions,
): Promise<number> {
  const { address, walletId, nowSec, signal } = options
  const askedSince = nowSec - options.refreshSec
  let calls = 0

  const own = await names.name(address)
  if (own === null || own.fetchedAtSec < askedSince) {
    calls++
    const status = await call('wallet.identity', { wallet: address }, signal).then(
      (identity) => [nameOf(identity, nowSec)],
      (error: unknown) => [noName(address, unansweredStatus(error), nowSec)],
    )
    await names.saveNames(status)
  }

  const funding = await names.funding(walletId)
  if (funding === null || (funding.status === 'unavailable' && funding.fetchedAtSec < askedSince)) {
    calls++
    await names.saveFunding(walletId, await askFunding(call, address, nowSec, signal))
  }

  return calls
}

/**
 * Who funded a wallet, as the names store keeps it: found, none (404), or not on this plan
 * (403, asked again after the refresh period). Other failures are thrown.
 *
 * @example
 * const funding = await askFunding(call, address, nowSec)
 * funding.fundedAtSec // when its history starts
 */
export async function askFunding(
  call: WalletCall,
  address: string,
  nowSec: number,
  signal?: AbortSignal,
): Promise<WalletFunding> {
  return call('wallet.fundedBy', { wallet: address }, signal).then(
    (f): WalletFunding => ({
      status: 'found',
      funder: f.funder,
      funderName: f.funderName,
      funderType: f.funderType,
      mint: f.mint,
      symbol: f.symbol,
      amountRaw: f.amountRaw,
      decimals: f.decimals,
      signature: f.signature,
      fundedAtSec: f.timestamp,
      fetchedAtSec: nowSec,
    }),
    (error: unknown): WalletFunding => ({
      ...NO_FUNDING,
      status: unansweredStatus(error) === 'none' ? 'none' : 'unavailable',
      fetchedAtSec: nowSec,
    }),
  )
}

export interface CounterpartyNamesOptions {
  nowSec: number
  refreshSec: number
  /**
   * Ask only in full batches of 100, leaving the rest for a later pass: after each
   * wallet's sync, so that a run over many wallets still makes ⌈unnamed / 100⌉ calls.
   */
  fullBatchesOnly: boolean
  signal?: AbortSignal
}

/**
 * Asks the service for the names of the counterparties in the watched wallets' stored
 * transfers that are not watched and were not asked within the refresh period, 100 a
 * batch-identity call. Resolves to the calls made.
 *
 * @example
 * await fillCounterpartyNames(call, names, { nowSec, refreshSec, fullBatchesOnly: false })
 */
export async function fillCounterpartyNames(
  call: WalletCall,
  names: NamesStore,
  options: CounterpartyNamesOptions,
): Promise<number> {
  const { nowSec, signal } = options
  const unnamed = await names.counterpartiesToName(nowSec - options.refreshSec)
  let calls = 0
  for (let i = 0; i < unnamed.length; i += BATCH_ADDRESSES) {
    const batch = unnamed.slice(i, i + BATCH_ADDRESSES)
    if (options.fullBatchesOnly && batch.length < BATCH_ADDRESSES) break
    calls++
    const answers = await call('wallet.batchIdentity', { addresses: batch }, signal).then(
      (identities) => {
        const byAddress = new Map(identities.map((id) => [id.address, nameOf(id, nowSec)]))
        // How the service shows an address it cannot name is undocumented:
        // whatever it leaves out is stored as "no name".
        return batch.map((a) => byAddress.get(a) ?? noName(a, 'none', nowSec))
      },
      (error: unknown) => {
        const status = unansweredStatus(error)
        return batch.map((a) => noName(a, status, nowSec))
      },
    )
    await names.saveNames(answers)
  }
  return calls
}

const NO_FUNDING = {
  funder: null,
  funderName: null,
  funderType: null,
  mint: null,
  symbol: null,
  amountRaw: null,
  decimals: null,
  signature: null,
  fundedAtSec: null,
} as const

function nameOf(identity: Identity, nowSec: number): AddressName {
  return {
    address: identity.address,
    status: identity.name.trim() === '' ? 'none' : 'named',
    name: identity.name.trim() === '' ? null : identity.name,
    type: identity.type,
    category: identity.category,
    tags: identity.tags,
    domainNames: identity.domainNames ?? [],
    fetchedAtSec: nowSec,
  }
}

/** "No name" for a 404; "not available" for a plan without the endpoint; others rethrown. */
function unansweredStatus(error: unknown): 'none' | 'unavailable' {
  if (error instanceof NotFoundError) return 'none'
  if (error instanceof PlanError) return 'unavailable'
  throw error
}

function noName(address: string, status: 'none' | 'unavailable', nowSec: number): AddressName {
  return {
    address,
    status,
    name: null,
    type: null,
    category: null,
    tags: [],
    domainNames: [],
    fetchedAtSec: nowSec,
  }
}
