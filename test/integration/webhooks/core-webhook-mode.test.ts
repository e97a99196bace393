import { readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { callCore } from '../../../src-main/cli/cli-core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { WebhookMode } from '../../../src-main/webhooks/webhook-mode'
import { WEBHOOK_SECRET_FILE } from '../../../src-main/webhooks/webhook-mode'
import { readStoredMirror, testMirror, type TestMirror } from '../../helpers/stored-mirror'
import { ENGINES } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { addActivityAndDeliver } from '../../helpers/webhook-truth'

// Webhook mode as a server starts it: through the core, with the route mounted on a
// node:http server on loopback. The secret lives in a 0600 file of the data folder, never
// in the mirror or an IPC answer; watchlist channels keep the webhook in step; the
// Activity page's channel says which mode watching is in.

const KEY = 'demo'

describe.each(ENGINES)('webhook mode started through the core (on %s)', (engine) => {
  const temp = makeTempDir()
  let mirror: TestMirror | undefined
  let sim: RunningSimulator
  let core: Core
  let server: Server
  let mode: WebhookMode
  let publicUrl: string
  let wallet: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    mirror = await testMirror(engine, temp.dir)
    core = await createCore({
      ...mirror.place,
      shell: 'web',
      version: 'test',
      apiKey: KEY,
      serviceUrl: sim.url,
    })
    wallet = sim.chain.walletByProfile('casual').address
    await callCore(core, 'watchlist:add', { address: wallet, label: 'Casual' })
    await callCore(core, 'sync:run', { address: wallet })
    server = createServer((req, res) =>
      req.url === mode?.route.path ? mode.route.handle(req, res) : res.writeHead(404).end(),
    )
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    mode = await core.startWebhookMode({ publicUrl, watchlistDebounceMs: 50 })
  }, 60_000)
  afterAll(async () => {
    await core?.close()
    await new Promise((done) => server?.close(done))
    await sim?.close()
    await mirror?.drop()
    temp.remove()
  })

  it('keeps the secret in a file only the user can read, and nowhere else', async () => {
    const file = join(temp.dir, WEBHOOK_SECRET_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const secret = readFileSync(file, 'utf8').trim()
    const [hook] = sim.webhooks.list(KEY)
    expect(hook?.authHeader).toBe(secret)
    const answers = JSON.stringify([
      await callCore(core, 'webhooks:mode', undefined),
      await callCore(core, 'webhooks:cached', undefined),
    ])
    expect(answers).not.toContain(secret)
    const dump = await readStoredMirror((mirror as TestMirror).place, async (db) =>
      JSON.stringify([
        await db.selectFrom('webhooks').selectAll().execute(),
        await db.selectFrom('webhook_mode_log').selectAll().execute(),
        await db.selectFrom('settings').selectAll().execute(),
      ]),
    )
    expect(dump).not.toContain(secret)
    expect(core.redact(`header was ${secret}`)).not.toContain(secret)
  })

  it('a delivery syncs the wallet, is announced as a change watching found, and the mode channel says deliveries are in use', async () => {
    const heard: { event: string; payload: unknown }[] = []
    const unsubscribe = core.events.subscribe((event, payload) => heard.push({ event, payload }))
    const signatures = await addActivityAndDeliver(sim.url, wallet)
    await mode.idle()
    const page = await callCore(core, 'history:page', { address: wallet, limit: 5 })
    expect(page.rows.map((r) => r.signature)).toContain(signatures[0])
    const status = await callCore(core, 'webhooks:mode', undefined)
    expect(status).toMatchObject({ isOn: true, mode: 'webhook' })
    expect(status.lastDeliverySec).not.toBeNull()
    expect(status.lines[0]?.line).toMatch(/^Webhook mode on at \d\d:\d\d UTC/)
    // Announcements are read from the mirror in the background, each in its own time.
    const count = (event: string) => heard.filter((h) => h.event === event).length
    await expect.poll(() => [count('sync:activity'), count('watch:change')]).toEqual([1, 1])
    unsubscribe()
    const change = heard.find((h) => h.event === 'watch:change')?.payload as {
      reasons: string[]
      summary: string
    }
    expect(change.reasons).toEqual(['delivery'])
    expect(change.summary).toMatch(
      /^Casual: webhook delivery; 1 new transaction \(\d+ credits, \d+ s\)$/,
    )
    const activity = heard.find((h) => h.event === 'sync:activity')?.payload
    expect(activity).toMatchObject({ address: wallet, newTransactions: 1 })
    const footprint = await callCore(core, 'watch:footprint', undefined)
    expect(footprint.changesLast24h).toBe(1)
  })

  it('History and the feed show what the service said of each delivered transaction: its type, source, sentence and NFT sale', async () => {
    const collector = sim.chain.walletByProfile('nft-collector').address
    await callCore(core, 'watchlist:add', { address: collector, label: 'Collector' })
    await callCore(core, 'sync:run', { address: collector })
    await mode.idle()
    const signatures = await addActivityAndDeliver(sim.url, collector, 12)
    await mode.idle()
    const history = await callCore(core, 'history:page', { address: collector, limit: 50 })
    const delivered = history.rows.filter((r) => signatures.includes(r.signature))
    expect(delivered.map((r) => r.signature).sort()).toEqual([...signatures].sort())
    // Every delivered event names its program and says what it did, in the wallet's words.
    for (const row of delivered) {
      expect(row.said.source, row.signature).not.toBeNull()
      if (row.changes.length > 0) expect(row.said.description).toContain(collector)
    }
    const sales = delivered.filter((r) => r.said.nftSale !== null)
    expect(sales.length).toBeGreaterThan(0)
    for (const sale of sales) {
      expect(sale.kind).toBe('NFT_SALE')
      expect(sale.said.source).toBe('MAGIC_EDEN')
      expect(sale.said.nftSale).toMatchObject({ buyer: collector, marketplace: 'MAGIC_EDEN' })
      // The price the service reports is what the wallet paid in SOL, fee left out.
      const paid = sale.changes.find((c) => c.symbol === 'SOL')
      expect(BigInt(sale.said.nftSale?.priceLamports ?? '-1')).toBe(
        -BigInt(paid?.amountRaw ?? '0') - BigInt(Math.round(sale.fee * 1e9)),
      )
    }
    const feed = await callCore(core, 'feed:page', { filters: { wallets: [collector] }, limit: 50 })
    for (const row of delivered) {
      const shown = feed.rows.find((f) => f.signature === row.signature)
      expect(shown?.said).toEqual(row.said)
      expect(shown?.kind).toBe(row.kind)
    }
    const sale = feed.rows.find((f) => f.signature === sales[0]?.signature)
    expect(sale?.summary).toMatch(/^Bought .+ for .+ SOL on Magic Eden$/)
    await callCore(core, 'watchlist:remove', { address: collector })
    await mode.idle()
  }, 120_000)

  it('watchlist:add and watchlist:remove keep the webhook’s addresses equal to the watchlist', async () => {
    const other = sim.chain.walletByProfile('active-trader').address
    const addresses = async () => [...(sim.webhooks.list(KEY)[0]?.accountAddresses ?? [])].sort()
    const watched = async () =>
      (await callCore(core, 'watchlist:list', undefined)).map((w) => w.address).sort()
    await callCore(core, 'watchlist:add', { address: other, label: 'Trader' })
    await expect.poll(addresses, { timeout: 5_000 }).toEqual(await watched())
    expect(await addresses()).toHaveLength(2)
    await callCore(core, 'watchlist:remove', { address: other })
    await expect.poll(addresses, { timeout: 5_000 }).toEqual([wallet])
    await mode.idle()
  })
})
