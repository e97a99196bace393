import { createServer } from 'node:http'
import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiKeys, DEFAULT_KEYS } from './api-keys'
import type { ClockOptions } from './chain/clock'
import type { Injection } from './chain/injections'
import { injectionAnswer, type InjectionAnswer } from './chain/injection-answer'
import type { PopulationId } from './chain/populations'
import { SimChain } from './chain/sim-chain'
import type { SimWallet } from './chain/sim-chain'
import { CreditCounter } from './credit-counter'
import { FaultInjector } from './fault-injector'
import { LiveActivity, startDefaultLive } from './live-activity'
import { RateLimiter } from './rate-limiter'
import type { RatePlan } from './rate-limiter'
import { RealVariance, type Variance } from './real-variance'
import { sendJson } from './routes/http-io'
import { handleJsonRpc, handleRest } from './service-handler'
import {
  parseSimulatorArgs,
  SIMULATOR_USAGE,
  SimulatorArgsError,
  type SimulatorCliArgs,
} from './simulator-args'
import type { ServiceDeps } from './service-handler'
import { controlRefusal, handleControl } from './sim-control'
import { WebhookDeliveries } from './webhook-deliveries'

// Entry point of the simulated data service: one loopback HTTP server serving the wallet
// REST paths, the v0 REST paths, JSON-RPC at POST / and the /__sim/ control surface.

export interface SimulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number
  /** Interface to bind; loopback by default. */
  host?: string
  /** Seed of the synthetic chain (default 42). */
  seed?: number
  /** Rate-limit plan (default 'off'). */
  plan?: RatePlan
  /**
   * Live mode: true for the default wallets, or a list of addresses/profile ids. A
   * population with a live plan (watch-day) runs it unless this is false.
   */
  live?: boolean | readonly string[]
  /** Which wallets the chain holds: 'default' (one per profile), 'watch-day', 'backfill' or 'hundred'. */
  population?: PopulationId
  /** Accepted API keys (default ['demo']). */
  keys?: readonly string[]
  /** Keys on the free plan (accepted too; 403 on identity and funded-by). */
  freePlanKeys?: readonly string[]
  /** Clock start and mode ('real' by default; tests use 'manual'). */
  clock?: ClockOptions
  /**
   * 'real': on a seeded share of answers, the shapes the real service sends beyond the
   * interface text (real-variance.ts); 'none' (default): the interface text's only.
   */
  variance?: Variance
}

export interface RunningSimulator {
  /** Base URL, e.g. http://127.0.0.1:54321 (REST paths and JSON-RPC at `/`). */
  readonly url: string
  readonly port: number
  readonly host: string
  readonly chain: SimChain
  readonly credits: CreditCounter
  readonly faults: FaultInjector
  readonly limiter: RateLimiter
  readonly live: LiveActivity
  readonly webhooks: WebhookDeliveries
  readonly keys: ApiKeys
  /** Appends `count` transactions to a wallet (as POST /__sim/activity does). */
  addActivity(wallet: SimWallet, count: number): string[]
  /** Injects one transaction into a wallet at the clock's time; answers as POST /__sim/inject does. */
  inject(wallet: SimWallet, injection: Injection): InjectionAnswer
  /** Collectible images served at /__sim/images/ so far. */
  imagesServed(): number
  close(): Promise<void>
}

/** Starts the simulator and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const chain = new SimChain({
    seed: options.seed ?? 42,
    clock: options.clock ?? {},
    population: options.population ?? 'default',
  })
  const keys = new ApiKeys(chain.seed, options.keys ?? DEFAULT_KEYS, options.freePlanKeys ?? [])
  const credits = new CreditCounter()
  const limiter = new RateLimiter(options.plan ?? 'off')
  const faults = new FaultInjector(chain.seed)
  const variance =
    options.variance === 'real'
      ? new RealVariance(
          chain.seed,
          chain.mints.map((m) => m.address),
        )
      : null
  const webhooks = new WebhookDeliveries(chain, chain.clock, keys, credits, variance)
  const live = new LiveActivity(chain, (wallet, txs) => webhooks.onActivity(wallet, txs))
  const heldOpen = new Set<ServerResponse>()
  const addActivity = (wallet: SimWallet, count: number): string[] => {
    const txs = chain.appendActivity(wallet, count)
    webhooks.onActivity(wallet, txs)
    return txs.map((tx) => tx.signature)
  }
  const inject = (wallet: SimWallet, injection: Injection): InjectionAnswer => {
    const tx = chain.injectActivity(wallet, injection)
    webhooks.onActivity(wallet, [tx])
    return injectionAnswer(chain, wallet, injection.kind, tx)
  }
  const service: ServiceDeps = {
    chain,
    keys,
    credits,
    limiter,
    faults,
    webhooks,
    heldOpen,
    variance,
  }
  const images = { served: 0 }
  const control = {
    chain,
    keys,
    credits,
    faults,
    limiter,
    live,
    webhooks,
    addActivity,
    inject,
    images,
  }

  const stopClockListener = chain.clock.onChange((now) => {
    live.tick(now)
    webhooks.processDue()
  })
  // In real-time mode the clock moves by itself: look for due work every second.
  const timer =
    chain.clock.mode === 'real'
      ? setInterval(() => {
          live.tick(chain.clock.nowSec())
          webhooks.processDue()
        }, 1_000)
      : null
  timer?.unref()

  if (options.live === true) startDefaultLive(live, chain)
  else if (options.live) {
    live.start(
      options.live.map((text) => {
        const wallet =
          chain.walletByAddress(text) ??
          chain.wallets.find((w) => w.profile.id === (text as SimWallet['profile']['id']))
        if (!wallet) throw new Error(`live: ${text} is not a wallet of the simulator`)
        return wallet
      }),
    )
  }
  if (options.live !== false && options.live !== true && chain.population.live.length > 0)
    startDefaultLive(live, chain)

  const server = createServer((req, res) => {
    // URL.parse, not new URL: an unparsable request line (`//[`) is a 400, not a crash.
    const url = URL.parse(req.url ?? '/', 'http://simulator.local')
    if (url === null) return sendJson(res, 400, { error: 'Bad request: the URL cannot be read.' })
    void (async () => {
      try {
        if (url.pathname.startsWith('/__sim')) {
          const refusal = controlRefusal(req, { host, port })
          if (refusal !== null) return sendJson(res, 403, { error: `Forbidden: ${refusal}.` })
          if (await handleControl(req, res, url, control)) return
        }
        if (req.method === 'POST' && url.pathname === '/')
          return await handleJsonRpc(req, res, url, service)
        if (await handleRest(req, res, url, service)) return
        sendJson(res, 404, { error: `no such endpoint: ${req.method ?? ''} ${url.pathname}` })
      } catch (e) {
        if (!res.headersSent)
          sendJson(res, 500, { error: e instanceof Error ? e.message : 'Internal server error' })
        else res.destroy()
      }
    })()
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host}:${port}`,
    port,
    host,
    chain,
    credits,
    faults,
    limiter,
    live,
    webhooks,
    keys,
    addActivity,
    inject,
    imagesServed: () => images.served,
    async close() {
      if (timer) clearInterval(timer)
      stopClockListener()
      live.stop()
      for (const res of heldOpen) res.destroy()
      heldOpen.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await webhooks.idle()
    },
  }
}

/** Where the standalone simulator's lines go: stdout and stderr, one line each. */
export interface SimulatorCliOutput {
  line(text: string): void
  errorLine(text: string): void
}

const PROCESS_OUTPUT: SimulatorCliOutput = {
  line: (text) => void process.stdout.write(`${text}\n`),
  errorLine: (text) => void process.stderr.write(`${text}\n`),
}

/**
 * The standalone simulator's command line. `--help` prints the usage (exit 0); a refused
 * option prints one line naming it, then the usage (exit 1). Otherwise it serves until
 * SIGINT/SIGTERM, its clock starting at `--now` (default `nowSec`), and prints one line
 * once it listens. Resolves to the exit code when nothing was started, else the simulator.
 */
export async function runSimulatorCli(
  argv: readonly string[],
  output: SimulatorCliOutput = PROCESS_OUTPUT,
  nowSec = Math.floor(Date.now() / 1000),
): Promise<RunningSimulator | number> {
  let args: SimulatorCliArgs
  try {
    args = parseSimulatorArgs(argv, nowSec)
  } catch (error) {
    if (!(error instanceof SimulatorArgsError)) throw error
    output.errorLine(`simulator: ${error.message}`)
    for (const line of SIMULATOR_USAGE) output.errorLine(line)
    return 1
  }
  if (args.help) {
    for (const line of SIMULATOR_USAGE) output.line(line)
    return 0
  }
  const sim = await startSimulator({
    port: args.port,
    host: args.host,
    seed: args.seed,
    plan: args.plan,
    // Without --live the population's own plan (if any) still runs.
    live: args.live ? true : undefined,
    keys: args.keys,
    freePlanKeys: args.freePlanKeys,
    population: args.population,
    variance: args.variance,
    // The histories lead up to the start: by default today, so dates read as recent.
    clock: { mode: 'real', startSec: args.startSec },
  })
  output.line(`simulator listening on ${sim.url}`)
  const stop = () => {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    void sim.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  return sim
}

// `npx tsx src-main/simulator/simulator-server.ts [...]` runs it directly. Named by file,
// not by import.meta.url: inside a bundle that URL is the bundle's, whatever it runs.
if (/simulator-server\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  runSimulatorCli(process.argv.slice(2)).then(
    (outcome) => {
      if (typeof outcome === 'number') process.exitCode = outcome
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
      process.exit(2)
    },
  )
}
