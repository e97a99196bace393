import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebhookListing, WebhookView } from '@shared/ipc/webhook-schemas'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver'
import {
  addActivityAndDeliver,
  ledgerWebhookCredits,
  simulatorManagementCredits,
} from '../../helpers/webhook-truth'

// `heliograph webhooks …` (issue 15): each command says its cost on stderr before it
// calls, `--estimate` stops there, and what it prints is what the simulator holds.

const KEY = 'demo'

describe('CLI: heliograph webhooks', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let receiver: WebhookReceiver
  let base: string[]
  let wallet: string
  let other: string
  let webhookID: string

  // What `watch add` spent looking at each wallet's size for its estimate (set in beforeAll).
  let looked = 0
  const spent = (): number => sim.credits.forKey(KEY).total - looked
  const activity = (address: string, count = 1) => addActivityAndDeliver(sim.url, address, count)

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    receiver = await startWebhookReceiver()
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', KEY]
    wallet = sim.chain.walletByProfile('casual').address
    other = sim.chain.walletByProfile('active-trader').address
    expect((await cli([...base, 'watch', 'add', wallet])).code).toBe(0)
    expect((await cli([...base, 'watch', 'add', other])).code).toBe(0)
    looked = sim.credits.forKey(KEY).total
  }, 60_000)
  afterAll(async () => {
    await sim?.close()
    await receiver?.close()
    temp.remove()
  })

  it('--estimate prints the cost and calls nothing', async () => {
    const run = await cli([...base, 'webhooks', 'list', '--estimate'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('webhooks list: 1 call of webhooks.list = 100 credits.')
    expect(run.stdout).toBe('')
    expect(spent()).toBe(0)
  })

  it('bad input gets a clear message before any call', async () => {
    const badUrl = await cli([
      ...base,
      'webhooks',
      'create',
      '--url',
      'ftp://example',
      '--type',
      'raw',
      '--address',
      wallet,
    ])
    expect(badUrl.code).toBe(1)
    expect(badUrl.stderr).toMatch(/create: Webhook URL must be a full URL/)
    const badId = await cli([...base, 'webhooks', 'disable', 'not-an-id'])
    expect(badId.code).toBe(1)
    expect(badId.stderr).toMatch(/webhook id: Webhook ID is not a valid uuid/)
    const badType = await cli([...base, 'webhooks', 'create', '--type', 'nope'])
    expect(badType.code).not.toBe(0)
    expect(spent()).toBe(0)
  })

  it('create --from-watchlist: the cost first, then the webhook the simulator holds', async () => {
    // The header piped in (`-`): on the command line every local user would read it in ps.
    const run = await cli(
      [
        ...base,
        'webhooks',
        'create',
        '--from-watchlist',
        '--url',
        receiver.url,
        '--type',
        'raw',
        '--auth-header',
        '-',
        '--json',
      ],
      { stdin: 'Bearer cli-s3cret\n' },
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr.split('\n')[0]).toBe(
      'webhooks create: 1 call of webhooks.create = 100 credits.',
    )
    const created = JSON.parse(run.stdout) as WebhookView
    webhookID = created.webhookID
    const truth = sim.webhooks.get(KEY, webhookID)
    expect(truth.accountAddresses.sort()).toEqual([wallet, other].sort())
    expect(created.accountAddresses.sort()).toEqual(truth.accountAddresses)
    expect(created).toMatchObject({
      state: 'active',
      isAuthHeaderSet: true,
      webhookURL: receiver.url,
    })
    expect(run.stdout).not.toContain('cli-s3cret')
  })

  it('list prints it (text and JSON) as the simulator has it', async () => {
    const json = await cli([...base, 'webhooks', 'list', '--json'])
    const listing = JSON.parse(json.stdout) as WebhookListing
    expect(listing.webhooks.map((w) => w.webhookID)).toEqual(
      sim.webhooks.list(KEY).map((w) => w.webhookID),
    )
    const text = await cli([...base, 'webhooks', 'list'])
    expect(text.stdout).toContain(`${webhookID}  active  raw  ${receiver.url}  2 addresses`)
    expect(text.stdout).toContain('auth header set')
  })

  it('disable: the simulator reports it inactive and stops delivering; enable resumes', async () => {
    const off = await cli([...base, 'webhooks', 'disable', webhookID])
    expect(off.code, off.stderr).toBe(0)
    expect(off.stderr).toContain('webhooks disable: 1 call of webhooks.toggle = 100 credits.')
    expect(off.stdout).toContain('State: disabled')
    expect(sim.webhooks.get(KEY, webhookID).active).toBe(false)
    await activity(wallet, 2)
    expect(receiver.received).toHaveLength(0)

    const on = await cli([...base, 'webhooks', 'enable', webhookID])
    expect(on.code, on.stderr).toBe(0)
    expect(on.stdout).toContain('State: active')
    expect(sim.webhooks.get(KEY, webhookID).active).toBe(true)
    const signatures = await activity(wallet, 2)
    expect(receiver.received.flatMap((r) => r.signatures).sort()).toEqual([...signatures].sort())
    expect(receiver.received[0]?.authorization).toBe('Bearer cli-s3cret')
  })

  it('update replaces the address list and types; get reads them back', async () => {
    const run = await cli([
      ...base,
      'webhooks',
      'update',
      webhookID,
      '--type',
      'enhanced',
      '--address',
      other,
      '--transaction-type',
      'TRANSFER',
      'SWAP',
      '--json',
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(sim.webhooks.get(KEY, webhookID)).toMatchObject({
      webhookType: 'enhanced',
      accountAddresses: [other],
      transactionTypes: ['TRANSFER', 'SWAP'],
    })
    const got = JSON.parse(
      (await cli([...base, 'webhooks', 'get', webhookID, '--json'])).stdout,
    ) as WebhookView
    expect(got.accountAddresses).toEqual([other])
    expect(got.transactionTypes).toEqual(['TRANSFER', 'SWAP'])
    const nothing = await cli([...base, 'webhooks', 'update', webhookID])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toMatch(/nothing to change/)
  })

  it('list --cached reads the mirror offline, with when it was listed', async () => {
    const before = spent()
    const run = await cli([
      '--data-dir',
      temp.dir,
      '--data-source',
      'service',
      'webhooks',
      'list',
      '--cached',
      '--json',
    ])
    expect(run.code, run.stderr).toBe(0)
    const listing = JSON.parse(run.stdout) as WebhookListing
    expect(listing.listedAtSec).toBeGreaterThan(0)
    expect(listing.webhooks.map((w) => w.webhookID)).toEqual([webhookID])
    expect(spent()).toBe(before)
  })

  it('an auto-disabled webhook is printed as such', async () => {
    const failing = await startWebhookReceiver(500)
    try {
      const created = JSON.parse(
        (
          await cli([
            ...base,
            'webhooks',
            'create',
            '--url',
            failing.url,
            '--type',
            'raw',
            '--address',
            wallet,
            '--json',
          ])
        ).stdout,
      ) as WebhookView
      for (let i = 0; i < 12 && sim.webhooks.get(KEY, created.webhookID).active; i++)
        await activity(wallet, 1)
      expect(sim.webhooks.get(KEY, created.webhookID).active).toBe(false)
      const got = await cli([...base, 'webhooks', 'get', created.webhookID])
      expect(got.stdout).toContain('State: auto-disabled by the service')
      expect(got.stdout).toMatch(/webhooks enable.*24 hours/)
      expect((await cli([...base, 'webhooks', 'delete', created.webhookID])).code).toBe(0)
    } finally {
      await failing.close()
    }
  }, 60_000)

  it('delete removes it; the ledger’s credits equal the simulator’s counter', async () => {
    const run = await cli([...base, 'webhooks', 'delete', webhookID])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`Deleted webhook ${webhookID}`)
    expect(sim.webhooks.list(KEY)).toEqual([])
    const counted = simulatorManagementCredits(sim, KEY)
    const ledger = await ledgerWebhookCredits({ dataDir: temp.dir })
    expect(ledger.credits).toBe(counted.credits)
    expect(ledger.credits).toBe(100 * counted.calls)
    // create, list ×2, disable, enable, update, get, create, get, delete, delete
    expect(ledger.calls).toBe(11)
  })
})
