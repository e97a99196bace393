import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { callCore } from '../../../src-main/cli/cli-core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { readStoredMirror, testMirror, type TestMirror } from '../../helpers/stored-mirror'
import { ENGINES } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver'
import {
  addActivityAndDeliver,
  ledgerWebhookCredits,
  simulatorManagementCredits,
} from '../../helpers/webhook-truth'

// Webhook management (issue 15) against the simulator over HTTP: create from the
// watchlist → listed → disabled (the simulator reports it inactive and stops delivering)
// → enabled (deliveries resume) → updated → deleted; a webhook the simulator turns off for
// failing deliveries reads as auto-disabled; the ledger's credits equal the simulator's.

const KEY = 'demo'

describe.each(ENGINES)(
  'webhooks: the whole life of one, against the simulator (on %s)',
  (engine) => {
    const temp = makeTempDir()
    let mirror: TestMirror | undefined
    let sim: RunningSimulator
    let core: Core
    let receiver: WebhookReceiver
    let wallet: string
    let other: string
    let webhookID: string
    let managementCalls = 0

    /** A management call through the core, counted for the credit comparison. */
    const manage: typeof callCore = (c, channel, input) => {
      managementCalls++
      return callCore(c, channel, input)
    }

    const activity = (address: string, count = 1) => addActivityAndDeliver(sim.url, address, count)

    /** Delivery attempts the simulator logged for one webhook. */
    async function attemptsOf(id: string): Promise<number> {
      const res = await fetch(`${sim.url}/__sim/webhooks/deliveries`)
      const { attempts } = (await res.json()) as { attempts: { webhookID: string }[] }
      return attempts.filter((a) => a.webhookID === id).length
    }

    beforeAll(async () => {
      sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
      receiver = await startWebhookReceiver()
      mirror = await testMirror(engine, temp.dir)
      core = await createCore({
        ...mirror.place,
        shell: 'web',
        version: 'test',
        apiKey: KEY,
        serviceUrl: sim.url,
      })
      wallet = sim.chain.walletByProfile('casual').address
      other = sim.chain.walletByProfile('active-trader').address
      await callCore(core, 'watchlist:add', { address: wallet, label: 'Casual' })
      await callCore(core, 'watchlist:add', { address: other, label: 'Trader' })
    }, 60_000)
    afterAll(async () => {
      await core?.close()
      await sim?.close()
      await receiver?.close()
      await mirror?.drop()
      temp.remove()
    })

    it('says what each action costs before it runs, without calling the service', async () => {
      const disable = await callCore(core, 'webhooks:plan', { action: 'disable' })
      expect(disable).toEqual({
        action: 'disable',
        operation: 'webhooks.toggle',
        credits: 100,
        words: 'Disable — 100 credits',
      })
      expect((await callCore(core, 'webhooks:plan', { action: 'list' })).words).toBe(
        'Refresh — 100 credits',
      )
      expect(sim.credits.forKey(KEY).calls).toBe(0)
      // Before the first listing the page has nothing to show, and says it was never fetched.
      expect(await callCore(core, 'webhooks:cached', undefined)).toEqual({
        webhooks: [],
        listedAtSec: null,
      })
    })

    it('bad input is refused before any call and costs nothing', async () => {
      const refused = core.dispatch('webhooks:create', {
        webhookURL: 'not a url',
        webhookType: 'raw',
        transactionTypes: ['ANY'],
        accountAddresses: ['0xabc'],
      })
      const envelope = await refused
      expect(envelope.ok).toBe(false)
      if (!envelope.ok)
        expect(envelope.error.message).toMatch(
          /^Webhook URL must be a full URL.*Account addresses #1/s,
        )
      const badId = await core.dispatch('webhooks:toggle', { webhookID: 'nope', active: false })
      expect(badId.ok).toBe(false)
      expect(sim.credits.forKey(KEY).calls).toBe(0)
    })

    it('creates one webhook on every watched wallet; the simulator and the list show it', async () => {
      const created = await manage(core, 'webhooks:create-from-watchlist', {
        webhookURL: receiver.url,
        webhookType: 'raw',
        transactionTypes: ['ANY'],
        authHeader: 'Bearer s3cret-value',
      })
      webhookID = created.webhookID
      const truth = sim.webhooks.get(KEY, webhookID)
      expect(truth.accountAddresses.sort()).toEqual([wallet, other].sort())
      expect(truth.authHeader).toBe('Bearer s3cret-value')
      expect(created).toMatchObject({
        state: 'active',
        webhookType: 'raw',
        webhookURL: receiver.url,
        isAuthHeaderSet: true,
        transactionTypes: ['ANY'],
      })
      const listing = await manage(core, 'webhooks:list', undefined)
      expect(listing.webhooks.map((w) => w.webhookID)).toEqual([webhookID])
      expect(listing.listedAtSec).not.toBeNull()
      // The secret is never handed back, nor kept in the mirror.
      expect(JSON.stringify(listing)).not.toContain('s3cret')
      const rows = await readStoredMirror((mirror as TestMirror).place, (db) =>
        db.selectFrom('webhooks').select('webhook_json').execute(),
      )
      expect(rows).toHaveLength(1)
      expect(rows[0]?.webhook_json).not.toContain('s3cret')
    })

    it('delivers activity of a watched wallet to the receiver with the auth header', async () => {
      const signatures = await activity(wallet, 2)
      const delivered = receiver.received.flatMap((r) => r.signatures)
      expect(delivered.sort()).toEqual([...signatures].sort())
      expect(receiver.received.every((r) => r.authorization === 'Bearer s3cret-value')).toBe(true)
    })

    it('disabled: the simulator reports it inactive and delivers nothing', async () => {
      const disabled = await manage(core, 'webhooks:toggle', { webhookID, active: false })
      expect(disabled.state).toBe('disabled')
      expect(sim.webhooks.get(KEY, webhookID).active).toBe(false)
      const before = receiver.received.length
      const attemptsBefore = await attemptsOf(webhookID)
      await activity(wallet, 3)
      await activity(other, 1)
      expect(receiver.received.length).toBe(before)
      expect(await attemptsOf(webhookID)).toBe(attemptsBefore)
      // Listed again, it is still one this app disabled, not an automatic disable.
      const listing = await manage(core, 'webhooks:list', undefined)
      expect(listing.webhooks[0]?.state).toBe('disabled')
    })

    it('enabled again: deliveries resume, and the grace period is dated', async () => {
      const enabled = await manage(core, 'webhooks:toggle', { webhookID, active: true })
      expect(enabled.state).toBe('active')
      expect(enabled.reenabledAtSec).not.toBeNull()
      expect(sim.webhooks.get(KEY, webhookID).active).toBe(true)
      const signatures = await activity(other, 2)
      const delivered = receiver.received.slice(-1).flatMap((r) => r.signatures)
      expect(delivered.sort()).toEqual([...signatures].sort())
    })

    it('update replaces the addresses and the types; get reads it back', async () => {
      const updated = await manage(core, 'webhooks:update', {
        webhookID,
        accountAddresses: [other],
        webhookType: 'enhanced',
        transactionTypes: ['TRANSFER', 'SWAP'],
      })
      expect(updated).toMatchObject({
        accountAddresses: [other],
        webhookType: 'enhanced',
        transactionTypes: ['TRANSFER', 'SWAP'],
        isAuthHeaderSet: true,
      })
      expect(sim.webhooks.get(KEY, webhookID).accountAddresses).toEqual([other])
      const read = await manage(core, 'webhooks:get', { webhookID })
      expect(read.transactionTypes).toEqual(['TRANSFER', 'SWAP'])
      // No longer watching the first wallet: its activity is not delivered.
      const before = receiver.received.length
      await activity(wallet, 2)
      expect(receiver.received.length).toBe(before)
    })

    it('delete: gone from the simulator and from the kept list', async () => {
      await manage(core, 'webhooks:delete', { webhookID })
      expect(sim.webhooks.list(KEY)).toEqual([])
      expect((await callCore(core, 'webhooks:cached', undefined)).webhooks).toEqual([])
    })

    it('a webhook whose deliveries keep failing is auto-disabled by the simulator and shown so', async () => {
      const failing = await startWebhookReceiver(500)
      try {
        const created = await manage(core, 'webhooks:create', {
          webhookURL: failing.url,
          webhookType: 'raw',
          transactionTypes: ['ANY'],
          accountAddresses: [wallet],
        })
        for (let i = 0; i < 12 && sim.webhooks.get(KEY, created.webhookID).active; i++)
          await activity(wallet, 1)
        expect(failing.received.length).toBeGreaterThanOrEqual(10)
        // The simulator turned it off, and says so the only way the interface can: active false.
        expect(sim.webhooks.get(KEY, created.webhookID).active).toBe(false)
        const listing = await manage(core, 'webhooks:list', undefined)
        expect(listing.webhooks.map((w) => [w.webhookID, w.state])).toEqual([
          [created.webhookID, 'auto-disabled'],
        ])
        // Re-enabled: active again, and within the 24-hour grace period failures do not
        // turn it off again.
        const again = await manage(core, 'webhooks:toggle', {
          webhookID: created.webhookID,
          active: true,
        })
        expect(again.state).toBe('active')
        expect(again.reenabledAtSec).not.toBeNull()
        for (let i = 0; i < 12; i++) await activity(wallet, 1)
        expect(sim.webhooks.get(KEY, created.webhookID).active).toBe(true)
        await manage(core, 'webhooks:delete', { webhookID: created.webhookID })
      } finally {
        await failing.close()
      }
    }, 60_000)

    it('the ledger’s credits equal the simulator’s counter: 100 × management calls', async () => {
      const counted = simulatorManagementCredits(sim, KEY)
      const ledger = await ledgerWebhookCredits((mirror as TestMirror).place)
      expect(ledger.calls).toBe(managementCalls)
      expect(counted.calls).toBe(managementCalls)
      expect(ledger.credits).toBe(counted.credits)
      expect(ledger.credits).toBe(100 * managementCalls)
    })
  },
)
