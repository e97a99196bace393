import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import { MemorySecretStore } from '../../../src-main/app/secret-store'
import { WatchScheduler } from '../../../src-main/sync/watch-scheduler'
import { DELIVERY_PATH } from '../../../src-main/webhooks/delivery-route'
import {
  startWebhookMode,
  type WebhookMode,
  type WebhookModeDeps,
  type WebhookModeTuning,
} from '../../../src-main/webhooks/webhook-mode'
import type { Variance } from '../../../src-main/simulator/real-variance'
import {
  ENGINES,
  startSyncFixture,
  type SyncFixture,
  type TestEngine,
} from '../../helpers/sync-fixture'
import { addActivityAndDeliver } from '../../helpers/webhook-truth'
import { expectMirrorEqualsTruth, expectWalletEqualsTruth } from '../sync/mirror-truth-assertions'
import { clockReading } from '../../helpers/clocks'

// Webhook mode (issue 17, item 5) against the simulator's real deliveries: the simulator
// POSTs to a delivery route served by a node:http server on loopback, the mode turns each
// delivery into an incremental sync of the wallet it names, and the watch scheduler's
// balance probe stands by. The simulator's clock is moved by hand; deliveries themselves
// go out as soon as a transaction exists.

const KEY = 'demo'
const CADENCE: WatchCadence = {
  isWatching: true,
  checkEverySec: 60,
  tokenAccountsEverySec: 3_600,
  compressedEverySec: 3_600,
  backstopEverySec: 86_400,
}
const SLOW_CHECK_EVERY_SEC = 600

/** A delivery as the server received it, for replaying. */
interface Received {
  authorization: string
  body: Buffer
  status: number
}

/**
 * Each engine, and once (SQLite) the real service's variety: deliveries without
 * `transactionError`, with `events: []` and types the app does not list, webhooks without
 * `active` — each still written as delivered.
 */
const RUNS: [string, TestEngine, Variance][] = [
  ...ENGINES.map((engine): [string, TestEngine, Variance] => [engine, engine, 'none']),
  ['sqlite, on the real service’s variety', 'sqlite', 'real'],
]

describe.each(RUNS)(
  'webhook mode: deliveries instead of polling (on %s)',
  (_, engine, variance) => {
    let fx: SyncFixture
    let server: Server
    let publicUrl: string
    let mode: WebhookMode
    let scheduler: WatchScheduler
    let wallet: string
    const secrets = new MemorySecretStore()
    const received: Received[] = []
    /** While set, the server answers 500 without reaching the route (an outage). */
    let isFailing = false
    const watchlistListeners = new Set<() => void>()

    const db = () => fx.db
    const simTotal = () => fx.sim.credits.forKey(KEY).total
    const simOp = (op: string) =>
      fx.sim.credits.forKey(KEY).byOperation[op] ?? { calls: 0, credits: 0 }
    const ledgerTotal = async (): Promise<number> => {
      await fx.runtime.meter.idle()
      const row = await db()
        .selectFrom('credit_ledger')
        .select((eb) => eb.fn.sum<number>('credits').as('c'))
        .executeTakeFirst()
      return Number(row?.c ?? 0)
    }
    /** Which of `signatures` the mirror holds. */
    const storedOf = async (signatures: string[]): Promise<Set<string>> =>
      new Set(
        (
          await db()
            .selectFrom('transactions')
            .select('signature')
            .where('signature', 'in', signatures)
            .execute()
        ).map((r) => r.signature),
      )
    const isEveryStored = async (signatures: string[]): Promise<boolean> =>
      (await storedOf(signatures)).size === new Set(signatures).size
    const timesRecorded = async (signature: string): Promise<number> =>
      (
        await db()
          .selectFrom('webhook_deliveries')
          .select('signature')
          .where('signature', '=', signature)
          .execute()
      ).length
    const ourWebhook = () => {
      const ours = fx.sim.webhooks.list(KEY).filter((w) => w.webhookURL.startsWith(publicUrl))
      expect(ours, 'exactly one webhook of ours on the service').toHaveLength(1)
      return ours[0] as (typeof ours)[number]
    }
    const modeLines = () =>
      db().selectFrom('webhook_mode_log').select(['mode', 'line']).orderBy('id').execute()

    /** New activity on the wallet; resolves once the simulator has attempted its delivery. */
    const addActivity = (address: string) => addActivityAndDeliver(fx.sim.url, address)
    /** Resolves once every signature is in the mirror; the ms since `startMs`. */
    async function waitStored(signatures: string[], startMs: number): Promise<number> {
      const timeoutMs = 10_000
      const start = startMs
      while (!(await isEveryStored(signatures))) {
        if (Date.now() - start > timeoutMs) throw new Error('not in the mirror in time')
        await new Promise((r) => setTimeout(r, 20))
      }
      return Date.now() - start
    }
    /** POSTs to the delivery route as the service would, with any headers and body. */
    function post(
      body: Buffer | string,
      authorization: string | null,
    ): Promise<{ status: number; text: string }> {
      return new Promise((done, fail) => {
        const req = httpRequest(`${publicUrl}${DELIVERY_PATH}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(authorization !== null ? { authorization } : {}),
          },
        })
        req.on('response', (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => done({ status: res.statusCode ?? 0, text }))
        })
        // The route stops reading a refused body and closes: the write may then fail.
        req.on('error', (e) => (e.message.includes('EPIPE') ? undefined : fail(e)))
        req.end(body)
      })
    }

    /** Webhook mode over the fixture's mirror, engine and scheduler, the simulator's clock. */
    const startMode = (
      options: Pick<WebhookModeDeps, 'onWatchlistChanged'> & WebhookModeTuning,
    ): Promise<WebhookMode> =>
      startWebhookMode({
        publicUrl,
        mirror: fx.mirror,
        engine: fx.runtime.engine,
        scheduler,
        recordCredits: (entry) => fx.runtime.meter.record(entry),
        secrets,
        checkEverySec: async () => CADENCE.checkEverySec,
        clock: clockReading(() => fx.sim.chain.clock.nowSec()),
        ...options,
      })

    beforeAll(async () => {
      fx = await startSyncFixture({
        sim: { clock: { mode: 'manual' }, variance },
        isOnSimulatorClock: true,
        engine,
      })
      wallet = await fx.watch('casual')
      await fx.runtime.engine.syncWallet(wallet)
      server = createServer((req, res) => {
        if (req.url !== DELIVERY_PATH || !mode) return void res.writeHead(404).end()
        if (isFailing) {
          req.resume()
          return void res.writeHead(500).end()
        }
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        res.on('finish', () =>
          received.push({
            authorization: req.headers.authorization ?? '',
            body: Buffer.concat(chunks),
            status: res.statusCode,
          }),
        )
        mode.route.handle(req, res)
      })
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
      publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      scheduler = new WatchScheduler({
        schedule: fx.mirror.schedule,
        watchState: fx.mirror.watchState,
        engine: fx.runtime.engine,
        cadence: async () => CADENCE,
        clock: clockReading(() => fx.sim.chain.clock.nowSec()),
      })
      // The probe's first look: the baseline later looks compare with.
      await scheduler.runRound()
      mode = await startMode({
        onWatchlistChanged: (listener) => {
          watchlistListeners.add(listener)
          return () => watchlistListeners.delete(listener)
        },
        slowCheckEverySec: SLOW_CHECK_EVERY_SEC,
        watchlistDebounceMs: 50,
        maxBodyBytes: 64 * 1024,
      })
    }, 60_000)
    afterAll(async () => {
      await mode?.stop()
      scheduler?.stop()
      await new Promise((done) => server?.close(done))
      await fx?.stop()
    })

    it('registers one webhook for the watchlist with a secret auth header kept out of the mirror', async () => {
      const hook = ourWebhook()
      expect(hook.webhookURL).toBe(`${publicUrl}${DELIVERY_PATH}`)
      expect(hook.accountAddresses).toEqual([wallet])
      expect(hook.active).toBe(true)
      const secret = secrets.read()
      expect(secret, 'a secret was made and kept').toMatch(/^[\w-]{40,}$/)
      expect(hook.authHeader).toBe(secret)
      const kept = await db().selectFrom('webhooks').selectAll().execute()
      expect(JSON.stringify(kept)).not.toContain(secret)
      expect(JSON.stringify(await modeLines())).not.toContain(secret)
      expect(mode.state().mode).toBe('webhook')
      expect((await modeLines()).at(-1)?.line).toMatch(
        /^Webhook mode on at \d\d:\d\d UTC: deliveries for 1 wallet; polling slowed to every 10 min$/,
      )
      expect(await ledgerTotal(), 'ledger = simulator counter').toBe(simTotal())
    })

    it('a new transaction reaches the mirror within 5 s of its delivery, for its 1 credit alone: written as delivered', async () => {
      const before = structuredClone(fx.sim.credits.forKey(KEY).byOperation)
      const startMs = Date.now()
      const signatures = await addActivity(wallet)
      const tookMs = await waitStored(signatures, startMs)
      expect(tookMs).toBeLessThan(5_000)
      await mode.idle()
      const spent = Object.fromEntries(
        Object.entries(fx.sim.credits.forKey(KEY).byOperation)
          .map(([op, v]) => [op, v.calls - (before[op]?.calls ?? 0)])
          .filter(([, calls]) => calls !== 0),
      )
      // The event (1 credit), written into the mirror as it came: no call at all.
      expect(spent).toEqual({ 'webhooks.delivery': 1 })
      expect(simOp('webhooks.delivery').credits - (before['webhooks.delivery']?.credits ?? 0)).toBe(
        1,
      )
      await expectMirrorEqualsTruth(db(), fx.sim.url, wallet)
    })

    it('a delivery the service gave up on is found by the probe and read from the chain: no history page', async () => {
      // Refused at its first try and at the three retries a minute apart: never delivered.
      isFailing = true
      const lost = await addActivity(wallet)
      for (let retry = 0; retry < 3; retry++) {
        fx.sim.chain.clock.advance(60)
        fx.sim.webhooks.processDue()
        await fx.sim.webhooks.idle()
      }
      expect(fx.sim.webhooks.pendingCount()).toBe(0)
      isFailing = false
      const startMs = Date.now()
      const delivered = await addActivity(wallet)
      await waitStored(delivered, startMs)
      await mode.idle()
      expect((await storedOf(lost)).size, 'the lost delivery is not in the mirror').toBe(0)

      // The probe reads amounts the deliveries do not account for: the wallet is synced from
      // its signatures, the delivered ones read again with the lost one among them.
      const before = structuredClone(fx.sim.credits.forKey(KEY).byOperation)
      fx.sim.chain.clock.advance(SLOW_CHECK_EVERY_SEC)
      const checked = await scheduler.runRound()
      expect(checked.map((c) => c.address)).toEqual([wallet])
      expect(await isEveryStored(lost), 'the lost transaction is recovered').toBe(true)
      const called = Object.keys(fx.sim.credits.forKey(KEY).byOperation).filter(
        (op) =>
          (fx.sim.credits.forKey(KEY).byOperation[op]?.calls ?? 0) !== (before[op]?.calls ?? 0),
      )
      expect(called).toContain('rpc.getTransaction')
      expect(called).not.toContain('wallet.history')
      expect(called).not.toContain('wallet.transfers')
      await expectMirrorEqualsTruth(db(), fx.sim.url, wallet)
    })

    it('refuses a wrong secret (401), a body over the limit (413) and a malformed one (400); syncs nothing', async () => {
      const before = { sim: simTotal(), ledger: await ledgerTotal() }
      const forged = JSON.stringify([{ signature: 'forged-signature', feePayer: wallet }])
      expect((await post(forged, 'wrong')).status).toBe(401)
      expect((await post(forged, null)).status).toBe(401)
      const secret = secrets.read() as string
      const big = JSON.stringify([{ signature: 'x'.repeat(70 * 1024), feePayer: wallet }])
      expect((await post(big, secret)).status).toBe(413)
      const notJson = await post('[{"signature": ', secret)
      expect(notJson.status).toBe(400)
      expect(notJson.text).toContain('not JSON')
      const wrongShape = await post(JSON.stringify({ signature: 'x' }), secret)
      expect(wrongShape.status).toBe(400)
      expect(JSON.parse(wrongShape.text).error).toMatch(/^The delivery: /)
      await mode.idle()
      expect(simTotal(), 'no call to the service').toBe(before.sim)
      expect(await ledgerTotal()).toBe(before.ledger)
      expect(await timesRecorded('forged-signature')).toBe(0)
    })

    it('deliveries turned off: polling takes over within one cadence, says so, and the webhook is re-enabled; deliveries then resume', async () => {
      // A probe round after the deliveries above: their changes are explained, nothing synced.
      fx.sim.chain.clock.advance(SLOW_CHECK_EVERY_SEC)
      expect(await scheduler.runRound()).toEqual([])

      // The server fails every delivery until the service disables the webhook.
      isFailing = true
      const missed: string[] = []
      for (let i = 0; i < 10 && ourWebhook().active; i++) {
        missed.push(...(await addActivity(wallet)))
      }
      expect(ourWebhook().active, 'the service disabled the failing webhook').toBe(false)
      isFailing = false
      expect((await storedOf(missed)).size).toBe(0)

      // One probe cadence later the balance look sees a change no delivery named: that
      // round syncs the wallet, and the webhook is looked at.
      fx.sim.chain.clock.advance(SLOW_CHECK_EVERY_SEC)
      const checked = await scheduler.runRound()
      expect(checked.map((c) => c.address)).toEqual([wallet])
      expect(await isEveryStored(missed), 'polling brought in what was not delivered').toBe(true)
      await mode.idle()
      expect(mode.state().mode).toBe('polling')
      const lines = (await modeLines()).map((l) => l.line)
      expect(lines.at(-2)).toMatch(
        /^Webhook deliveries stopped at \d\d:\d\d UTC \(the service disabled the webhook\); polling every 1 min meanwhile$/,
      )
      expect(lines.at(-1)).toMatch(
        /^Re-enabled the webhook at \d\d:\d\d UTC; polling until a delivery arrives$/,
      )
      expect(ourWebhook().active, 're-enabled').toBe(true)

      // Deliveries resume: the next transaction arrives by delivery and polling slows again.
      const startMs = Date.now()
      const signatures = await addActivity(wallet)
      expect(await waitStored(signatures, startMs)).toBeLessThan(5_000)
      await mode.idle()
      expect(mode.state().mode).toBe('webhook')
      expect((await modeLines()).at(-1)?.line).toMatch(
        /^Webhook deliveries resumed at \d\d:\d\d UTC; polling slowed to every 10 min$/,
      )
      await expectMirrorEqualsTruth(db(), fx.sim.url, wallet)
    })

    it('adding and removing watched wallets updates the one webhook’s addresses, one call each', async () => {
      const other = fx.sim.chain.walletByProfile('active-trader').address
      const updates = () => simOp('webhooks.update').calls
      const before = updates()
      await fx.mirror.watchlist.add({ address: other, label: 'Trader' }, 1_700_000_000)
      for (const listener of watchlistListeners) listener()
      for (const listener of watchlistListeners) listener()
      await new Promise((r) => setTimeout(r, 150))
      await mode.idle()
      expect(updates() - before, 'one update for a burst of changes').toBe(1)
      const watched = async () => (await fx.mirror.watchlist.list()).map((w) => w.address).sort()
      expect([...ourWebhook().accountAddresses].sort()).toEqual(await watched())

      await fx.mirror.watchlist.remove(other)
      for (const listener of watchlistListeners) listener()
      await mode.syncAddresses()
      expect(updates() - before).toBe(2)
      expect([...ourWebhook().accountAddresses].sort()).toEqual(await watched())
      expect(fx.sim.webhooks.list(KEY)).toHaveLength(1)
    })

    it('a restart takes over the webhook it registered instead of making another', async () => {
      await mode.stop()
      const creates = simOp('webhooks.create').calls
      mode = await startMode({ onWatchlistChanged: () => () => {} })
      expect(simOp('webhooks.create').calls).toBe(creates)
      expect(fx.sim.webhooks.list(KEY)).toHaveLength(1)
      expect(mode.state().webhookID).toBe(ourWebhook().webhookID)
      const startMs = Date.now()
      const signatures = await addActivity(wallet)
      expect(await waitStored(signatures, startMs)).toBeLessThan(5_000)
      await mode.idle()
      await expectMirrorEqualsTruth(db(), fx.sim.url, wallet)
    })

    it('a webhook deleted elsewhere is registered again at the next check', async () => {
      fx.sim.webhooks.remove(KEY, ourWebhook().webhookID)
      await mode.checkHealth()
      const lines = (await modeLines()).map((l) => l.line)
      expect(lines.at(-1)).toMatch(
        /^The webhook was deleted at \d\d:\d\d UTC; polling every 1 min meanwhile$/,
      )
      expect(mode.state()).toMatchObject({ mode: 'polling', webhookID: ourWebhook().webhookID })
      expect(ourWebhook().authHeader).toBe(secrets.read())
      const startMs = Date.now()
      const signatures = await addActivity(wallet)
      expect(await waitStored(signatures, startMs)).toBeLessThan(5_000)
      await mode.idle()
      expect(mode.state().mode).toBe('webhook')
    })

    it('a service unreachable at start leaves polling on; the next check registers', async () => {
      await mode.stop()
      const fault = await fetch(`${fx.sim.url}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ target: 'webhooks.list', kind: 'error', status: 400, count: 1 }),
      })
      expect(fault.status).toBe(200)
      mode = await startMode({ onWatchlistChanged: () => () => {} })
      expect(mode.state()).toMatchObject({ mode: 'polling', webhookID: null })
      expect((await modeLines()).at(-1)?.line).toMatch(
        /^Webhook mode could not register its webhook at \d\d:\d\d UTC \(.+\); polling every 1 min meanwhile$/,
      )
      const creates = simOp('webhooks.create').calls
      await mode.checkHealth()
      expect(simOp('webhooks.create').calls, 'the one registered before is taken over').toBe(
        creates,
      )
      expect(mode.state()).toMatchObject({ mode: 'webhook', webhookID: ourWebhook().webhookID })
      expect((await modeLines()).at(-1)?.line).toMatch(
        /^Webhook registered at \d\d:\d\d UTC for 1 wallet; polling slowed to every 10 min$/,
      )
      expect(await ledgerTotal(), 'ledger = simulator counter').toBe(simTotal())
    })

    it('the same delivery twice syncs once and is recorded once', async () => {
      const signatures = await addActivity(wallet)
      await waitStored(signatures, Date.now())
      await mode.idle()
      const delivery = received.findLast((r) =>
        signatures.every((s) => r.body.toString().includes(s)),
      )
      expect(delivery?.status).toBe(200)
      const before = { sim: simTotal(), history: simOp('wallet.history').calls }
      for (let i = 0; i < 2; i++) {
        const again = await post(delivery?.body as Buffer, delivery?.authorization as string)
        expect(again.status).toBe(200)
      }
      await mode.idle()
      expect(simOp('wallet.history').calls, 'no second sync').toBe(before.history)
      expect(simTotal()).toBe(before.sim)
      for (const s of signatures) {
        expect(await timesRecorded(s)).toBe(1)
      }
      // The ledger counts every event a delivery carried; these replays were never charged.
      expect(await ledgerTotal()).toBe(simTotal() + 2 * signatures.length)
    })

    it('a token account a delivered purchase opens is watched with its amount; a receipt into it the wallet never signed is delivered and written', async () => {
      const w = fx.sim.chain.walletByAddress(wallet)!
      const walletId = (await fx.mirror.writer.walletId(wallet))!
      const watched = async () =>
        new Map(
          (await fx.mirror.watchState.accounts([walletId])).map((a) => [a.address, a.observed]),
        )
      const bought = fx.sim.inject(w, { kind: 'token-purchase' })
      await fx.sim.webhooks.idle()
      await waitStored([bought.signature], Date.now())
      await mode.idle()
      expect((await watched()).get(bought.tokenAccount!)).toBe(bought.amountRaw)

      const receipt = fx.sim.inject(w, { kind: 'token-receipt', mint: bought.mint! })
      await fx.sim.webhooks.idle()
      await waitStored([receipt.signature], Date.now())
      await mode.idle()
      // The probe's next look reads the account moved, and finds the delivery accounted for it.
      fx.sim.chain.clock.advance(SLOW_CHECK_EVERY_SEC)
      expect(await scheduler.runRound()).toEqual([])
      // The ledger counts the replays above that were never charged: the wallet's rows alone.
      await expectWalletEqualsTruth(db(), fx.sim.url, wallet)
    })
  },
)
