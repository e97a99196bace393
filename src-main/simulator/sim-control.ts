import { SIM_IMAGE_PATH, simulatedImage } from './sim-images'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import type { ApiKeys } from './api-keys'
import type { Injection } from './chain/injections'
import { SILENT_VARIANTS, type InjectionKind } from './chain/injections'
import type { SimChain, SimWallet } from './chain/sim-chain'
import type { InjectionAnswer } from './chain/injection-answer'
import {
  historyEntry,
  nftEntry,
  ownedCollectibles,
  transferEntries,
  compressedAccount,
} from './chain/views'
import { formatRawAmount, rawToNumber, SOL_MINT_INDEX } from './chain/mints'
import type { CreditCounter } from './credit-counter'
import type { FaultInjector } from './fault-injector'
import { FaultSpec } from './fault-injector'
import { describeIssues } from '@shared/validation/zod-issues'
import type { LiveActivity } from './live-activity'
import { startDefaultLive } from './live-activity'
import type { RateLimiter } from './rate-limiter'
import { readBody, sendJson, SimRequestError } from './routes/http-io'
import type { WebhookDeliveries } from './webhook-deliveries'
import { tokenProgramId } from './chain/accounts'

// The /__sim/ control surface: only on the simulator, no key needed, never charged. Tests
// and demos use it to list wallets, read credits, move the clock, add or inject activity,
// inject faults, run live mode and read the full truth of a wallet cheaply.

interface ControlDeps {
  chain: SimChain
  keys: ApiKeys
  credits: CreditCounter
  faults: FaultInjector
  limiter: RateLimiter
  live: LiveActivity
  webhooks: WebhookDeliveries
  /** Appends activity and tells webhooks. */
  addActivity: (wallet: SimWallet, count: number) => string[]
  /** Injects one transaction and tells webhooks. */
  inject: (wallet: SimWallet, injection: Injection) => InjectionAnswer
  /** How many collectible images were served. */
  images: { served: number }
}

/** Largest range one truth request returns (the whale is read in slices). */
const TRUTH_PAGE_MAX = 10_000

const ClockBody = z.union([
  z.strictObject({ advanceSec: z.number().min(0) }),
  z.strictObject({ setSec: z.number().int().min(0) }),
])
const ActivityBody = z.strictObject({
  wallet: z.string().min(1),
  count: z.int().min(1).max(10_000).default(1),
})
const LiveBody = z
  .strictObject({
    action: z.enum(['start', 'stop']),
    wallets: z.array(z.string().min(1)).optional(),
    everySec: z.number().min(1).optional(),
    perDay: z.number().positive().max(86_400).optional(),
  })
  .refine((b) => b.everySec === undefined || b.perDay === undefined, {
    message: 'give everySec or perDay, not both',
    path: ['perDay'],
  })
const AmountRaw = z
  .string()
  .regex(/^\d+$/, 'expected a positive integer as a decimal string')
  .transform((text) => BigInt(text))
/** A mint of the simulator by address (or its index in the mint table). */
const MintText = z.union([z.string().min(1), z.int().min(0)])
/** An injection of a token (its own mint unless given, and amount). */
const tokenInjection = <K extends 'token-airdrop' | 'token-purchase'>(kind: K) =>
  z.strictObject({
    wallet: z.string().min(1),
    kind: z.literal(kind),
    mint: MintText.optional(),
    amountRaw: AmountRaw.optional(),
  })
const InjectBody = z.discriminatedUnion('kind', [
  tokenInjection('token-airdrop')
    .extend({
      // A new mint issued for the airdrop, named as its issuer chose (any text: the chain
      // does not check what a token calls itself).
      symbol: z.string().min(1).max(200).optional(),
      name: z.string().max(200).optional(),
    })
    .refine((b) => b.symbol === undefined || b.mint === undefined, {
      message: 'give mint (an existing one) or symbol (a new one), not both',
      path: ['symbol'],
    }),
  z.strictObject({
    wallet: z.string().min(1),
    kind: z.literal('silent'),
    variant: z.enum(SILENT_VARIANTS).optional(),
  }),
  z.strictObject({ wallet: z.string().min(1), kind: z.literal('address-poisoning') }),
  tokenInjection('token-purchase'),
  z.strictObject({
    wallet: z.string().min(1),
    kind: z.literal('token-receipt'),
    mint: MintText,
    amountRaw: AmountRaw.optional(),
  }),
  z.strictObject({ wallet: z.string().min(1), kind: z.literal('close-account'), mint: MintText }),
  z.strictObject({ wallet: z.string().min(1), kind: z.literal('failed-swap') }),
]) satisfies z.ZodType<{ kind: InjectionKind }>

/** An injection as the chain takes it: an airdrop's symbol and name ask for a new mint. */
function injectionOf(body: z.output<typeof InjectBody>): Injection {
  if (body.kind !== 'token-airdrop') {
    const { wallet: _wallet, ...injection } = body
    return injection
  }
  const { wallet: _wallet, symbol, name, ...airdrop } = body
  return symbol === undefined ? airdrop : { ...airdrop, issue: { symbol, name: name ?? symbol } }
}

function resolveWallet(chain: SimChain, text: string): SimWallet {
  const wallet = chain.walletByAddress(text) ?? chain.wallets.find((w) => w.profile.id === text)
  if (!wallet) {
    const profiles = [...new Set(chain.wallets.map((w) => w.profile.id))]
    throw new SimRequestError(
      404,
      -32004,
      `wallet: ${text} is neither a wallet address of the simulator nor one of ${profiles.join(', ')}`,
    )
  }
  return wallet
}

async function readJson<S extends z.ZodType>(
  req: IncomingMessage,
  schema: S,
): Promise<z.output<S>> {
  const text = await readBody(req)
  let body: unknown
  try {
    body = text.trim() === '' ? {} : JSON.parse(text)
  } catch {
    throw new SimRequestError(400, -32700, 'body: not valid JSON')
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw new SimRequestError(400, -32602, describeIssues(parsed.error))
  return parsed.data
}

function range(chain: SimChain, wallet: SimWallet, url: URL): { from: number; to: number } {
  const count = chain.txCount(wallet)
  const from = Math.max(0, Number(url.searchParams.get('from') ?? 0) || 0)
  const limit = Math.min(
    TRUTH_PAGE_MAX,
    Math.max(0, Number(url.searchParams.get('limit') ?? TRUTH_PAGE_MAX) || 0),
  )
  return { from, to: Math.min(count, from + limit) }
}

function truthSummary(chain: SimChain, wallet: SimWallet) {
  const raw = chain.balancesNow(wallet)
  const compressed = chain
    .collectibles(wallet)
    .compressed.map((i) => compressedAccount(chain, wallet, chain.tx(wallet, i)))
  return {
    address: wallet.address,
    profile: wallet.profile.id,
    txCount: chain.txCount(wallet),
    balances: chain.mintsOf(wallet).map((m) => {
      const mint = chain.mints[m]
      const amount = raw[m] ?? 0n
      return {
        mint: mint?.address,
        symbol: mint?.symbol,
        decimals: mint?.decimals,
        amountRaw: amount.toString(),
        amount: rawToNumber(amount, mint?.decimals ?? 0),
        text: formatRawAmount(amount, mint?.decimals ?? 0),
      }
    }),
    solLamports: (raw[SOL_MINT_INDEX] ?? 0n).toString(),
    nfts: ownedCollectibles(chain, wallet).map((tx) => nftEntry(chain, tx)),
    compressed: {
      accounts: compressed.map((c) => ({ ...c.account, tokenData: c.tokenData })),
      signatures: chain
        .collectibles(wallet)
        .compressed.map((i) => chain.signatureOf(wallet, i))
        .reverse(),
    },
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Why a /__sim/ request is refused, or null. The control surface moves the clock and adds
 * activity, so a web page must not reach it: a request from a browser (it carries an
 * Origin) must come from the simulator's own origin, and on a loopback listener the Host
 * must name loopback (a DNS-rebound name does not).
 */
export function controlRefusal(
  req: IncomingMessage,
  listen: { host: string; port: number },
): string | null {
  const host = req.headers.host ?? ''
  const hostName = host.replace(/:\d+$/, '')
  const isLoopbackListener = LOOPBACK_HOSTS.has(listen.host) || listen.host === '::1'
  if (isLoopbackListener && !LOOPBACK_HOSTS.has(hostName))
    return `Host ${JSON.stringify(host)} is not this simulator`
  const origin = req.headers.origin
  if (origin !== undefined && origin !== `http://${host}`)
    return 'the control routes do not answer other web pages'
  return null
}

/** Handles a /__sim/ request; false when the path is not part of the control surface. */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: ControlDeps,
): Promise<boolean> {
  const { chain } = deps
  const method = req.method ?? 'GET'
  const path = url.pathname.replace(/\/+$/, '')
  try {
    if (path.startsWith(SIM_IMAGE_PATH) && method === 'GET') {
      serveImage(res, path.slice(SIM_IMAGE_PATH.length).replace(/\.png$/, ''), deps)
      return true
    }
    if (path === '/__sim/wallets' && method === 'GET') {
      sendJson(res, 200, walletsView(chain))
      return true
    }
    if (path === '/__sim/credits') {
      if (method === 'DELETE') {
        deps.credits.reset()
        sendJson(res, 200, { keys: {} })
        return true
      }
      const key = url.searchParams.get('key')
      sendJson(
        res,
        200,
        key !== null ? { key, ...deps.credits.forKey(key) } : { keys: deps.credits.snapshot() },
      )
      return true
    }
    if (path === '/__sim/clock') {
      if (method === 'POST') {
        const body = await readJson(req, ClockBody)
        if ('advanceSec' in body) chain.clock.advance(body.advanceSec)
        else chain.clock.set(body.setSec)
      }
      sendJson(res, 200, {
        nowSec: chain.clock.nowSec(),
        slot: chain.currentSlot(),
        mode: chain.clock.mode,
      })
      return true
    }
    if (path === '/__sim/activity' && method === 'POST') {
      const body = await readJson(req, ActivityBody)
      const wallet = resolveWallet(chain, body.wallet)
      const signatures = deps.addActivity(wallet, body.count)
      sendJson(res, 200, {
        wallet: wallet.address,
        added: signatures.length,
        txCount: chain.txCount(wallet),
        signatures,
      })
      return true
    }
    if (path === '/__sim/inject' && method === 'POST') {
      await inject(req, res, deps)
      return true
    }
    if (path === '/__sim/faults') {
      if (method === 'POST') {
        const spec = await readJson(req, FaultSpec)
        sendJson(res, 200, deps.faults.add(spec))
        return true
      }
      if (method === 'DELETE') deps.faults.clear()
      sendJson(res, 200, { faults: deps.faults.list() })
      return true
    }
    if (path === '/__sim/live') {
      if (method === 'POST') {
        const body = await readJson(req, LiveBody)
        const wallets = body.wallets?.map((w) => resolveWallet(chain, w))
        const pace =
          body.perDay !== undefined
            ? { perDay: body.perDay }
            : body.everySec !== undefined
              ? { everySec: body.everySec }
              : undefined
        if (body.action === 'start') {
          if (wallets) deps.live.start(wallets, pace)
          else startDefaultLive(deps.live, chain, pace)
        } else deps.live.stop(wallets)
      }
      sendJson(res, 200, { running: deps.live.state() })
      return true
    }
    if (path === '/__sim/plan') {
      sendJson(res, 200, { plan: deps.limiter.plan, keys: deps.keys.list() })
      return true
    }
    if (path === '/__sim/rate-log' && method === 'GET') {
      // Every request the plan's limiter counted from index `since` on, 429s with their Retry-After.
      const since = Number(url.searchParams.get('since') ?? 0)
      if (!Number.isInteger(since) || since < 0)
        throw new SimRequestError(400, -32602, 'since: expected a whole number ≥ 0')
      sendJson(res, 200, { plan: deps.limiter.plan, ...deps.limiter.decisions(since) })
      return true
    }
    if (path === '/__sim/webhooks/deliveries' && method === 'GET') {
      sendJson(res, 200, { pending: deps.webhooks.pendingCount(), attempts: deps.webhooks.log })
      return true
    }
    if (path === '/__sim/webhooks/flush' && method === 'POST') {
      deps.webhooks.processDue()
      await deps.webhooks.idle()
      sendJson(res, 200, {
        pending: deps.webhooks.pendingCount(),
        attempts: deps.webhooks.log.length,
      })
      return true
    }
    if (method === 'GET' && serveTruth(res, path, url, chain)) return true
    if (path.startsWith('/__sim')) {
      sendJson(res, 404, { error: `no control endpoint ${method} ${path}` })
      return true
    }
    return false
  } catch (e) {
    const error =
      e instanceof SimRequestError
        ? e
        : new SimRequestError(500, -32603, e instanceof Error ? e.message : String(e))
    sendJson(res, error.status, { error: error.message })
    return true
  }
}

/** The art of a collectible the chain knows (`<asset id>.png`). */
function serveImage(res: ServerResponse, id: string, deps: ControlDeps): void {
  if (deps.chain.assetOrigin(id) === null) {
    sendJson(res, 404, { error: `no collectible ${id}` })
    return
  }
  deps.images.served++
  const png = simulatedImage(id)
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
  res.end(png)
}

/** Every wallet of the chain with its token accounts, and every mint. */
function walletsView(chain: ControlDeps['chain']) {
  return {
    seed: chain.seed,
    population: chain.population.id,
    wallets: chain.wallets.map((w) => ({
      address: w.address,
      profile: w.profile.id,
      label: w.profile.label,
      txCount: chain.txCount(w),
      domain: w.profile.domain ?? null,
      // Every fungible token account the wallet may have (open while its amount is positive).
      tokenAccounts: chain
        .mintsOf(w)
        .filter((m) => m !== SOL_MINT_INDEX)
        .map((m) => ({
          mint: chain.mints[m]?.address,
          address: chain.tokenAccountAddress(w, m),
        })),
    })),
    mints: chain.mints.map((m) => ({
      address: m.address,
      symbol: m.symbol,
      name: m.name,
      decimals: m.decimals,
      priceUsd: m.priceUsd,
      tokenProgram: tokenProgramId(m.tokenProgram),
    })),
  }
}

/** Adds one transaction of an asked kind (an airdrop, a purchase, a close…) to a wallet. */
async function inject(req: IncomingMessage, res: ServerResponse, deps: ControlDeps): Promise<void> {
  const body = await readJson(req, InjectBody)
  const wallet = resolveWallet(deps.chain, body.wallet)
  const injection = injectionOf(body)
  let answer: InjectionAnswer
  try {
    answer = deps.inject(wallet, injection)
  } catch (e) {
    throw new SimRequestError(400, -32602, e instanceof Error ? e.message : String(e))
  }
  sendJson(res, 200, answer)
}

/** The chain's truth about a wallet, for tests to compare the mirror with; false when not asked. */
function serveTruth(
  res: ServerResponse,
  path: string,
  url: URL,
  chain: ControlDeps['chain'],
): boolean {
  const truth = /^\/__sim\/truth\/([^/]+)(?:\/([a-z-]+))?$/.exec(path)
  if (truth) {
    const wallet = resolveWallet(chain, decodeURIComponent(truth[1] ?? ''))
    const what = truth[2]
    if (what === undefined) {
      sendJson(res, 200, truthSummary(chain, wallet))
      return true
    }
    if (what === 'history' || what === 'signatures' || what === 'transfers') {
      const { from, to } = range(chain, wallet, url)
      const out: unknown[] = []
      for (let i = from; i < to; i++) {
        if (what === 'signatures') out.push(chain.signatureOf(wallet, i))
        else {
          const tx = chain.tx(wallet, i)
          if (what === 'history')
            out.push({
              index: i,
              type: tx.type,
              directRef: tx.directRef,
              ...historyEntry(chain, wallet, tx),
            })
          else out.push(...transferEntries(chain, tx))
        }
      }
      // Ascending by index (oldest first) so slices concatenate.
      sendJson(res, 200, {
        txCount: chain.txCount(wallet),
        from,
        to,
        [what === 'history' ? 'entries' : what]: out,
      })
      return true
    }
    if (what === 'compression-signatures') {
      const txs = chain
        .collectibles(wallet)
        .compressed.map((i) => chain.tx(wallet, i))
        .reverse()
      sendJson(res, 200, {
        owner: txs.map((tx) => tx.signature),
        tokenOwner: txs
          .filter((tx) => (tx.compressed?.tokenMint ?? null) !== null)
          .map((tx) => tx.signature),
      })
      return true
    }
  }
  return false
}
