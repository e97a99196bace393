import bs58 from 'bs58'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNELS, contract, type Channel } from '@shared/ipc/contract'
import { WebhookAction } from '@shared/ipc/webhook-schemas'
import type { Envelope } from '@shared/ipc/envelope'
import { exportDownloadPath, type ExportResult } from '@shared/ipc/export-schemas'
import { rawRequest } from '../../helpers/raw-http'
import { createCore, type Core } from '../../../src-main/app/core'
import { simulatorCredits } from '../../helpers/sim-truth'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'
import { WATCHING_OFF } from '../../helpers/watching-off'
import { testAddress } from '../../helpers/wallets'
import { GOLDEN_SEED, syncedMirror, type SyncedMirror } from '../export/export-fixture'

// Spending is checked where credits are spent, not per channel: on a team server against
// the simulator, a viewer walks every channel a viewer may use, with every option that can
// reach the service, and the simulator's counter does not move. The same walk by an
// editor does spend, so the walk reaches the service.

describe('team server: a viewer spends no credits, whatever channel or option', () => {
  let synced: SyncedMirror
  let core: Core
  let fx: TeamFixture
  let wallet: string
  let date: string
  const sockets: Record<string, TeamSocket> = {}
  const cookies: Record<string, string> = {}

  beforeAll(async () => {
    synced = await syncedMirror(['casual'], GOLDEN_SEED)
    wallet = synced.addresses.get('casual') as string
    date = new Date((synced.sim.chain.clock.nowSec() - 3 * 86_400) * 1000)
      .toISOString()
      .slice(0, 10)
    core = await createCore({
      dataDir: synced.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
      serviceUrl: synced.sim.url,
      apiKey: 'demo',
    })
    // No round of the app's own: only what the walk asks can spend.
    const off = await core.dispatch('settings:update', { watch: WATCHING_OFF })
    if (!off.ok) throw new Error(off.error.message)
    fx = await startTestTeamServer({
      existing: { core, dataDir: synced.dir },
      users: [
        { name: 'vera', role: 'viewer' },
        { name: 'eddie', role: 'editor' },
      ],
    })
    for (const name of ['vera', 'eddie']) {
      cookies[name] = (await fx.signIn(name)).cookie
      const ws = await fx.connect({ cookie: cookies[name] })
      if (typeof ws === 'number') throw new Error(`${name}'s socket was refused (${ws})`)
      sockets[name] = ws
    }
  }, 120_000)
  afterAll(async () => {
    for (const ws of Object.values(sockets)) ws.close()
    await fx?.stop()
    await core?.close()
    await synced?.stop()
  })

  /** Every input of each viewer channel worth trying: each option that could reach the service. */
  function viewerInputs(walker = 'walk'): Record<string, unknown[]> {
    const other = testAddress(41)
    const signature = bs58.encode(new Uint8Array(64).fill(7))
    const exportsOf = (id: string) => {
      const kinds = ['balance-changes', 'transfers', 'balances'].map((kind) => ({
        kind,
        filters: { wallets: [wallet] },
      }))
      const at = [
        { source: 'local', includeNfts: false },
        { source: 'service', includeNfts: false },
        { source: 'service', includeNfts: true },
      ].map((choice) => ({
        kind: 'balances-at',
        filters: { wallets: [wallet], balancesAt: { date, ...choice } },
      }))
      return [...kinds, ...at].map((input, n) =>
        id ? { exportId: `${id}-export-${n}`, ...input } : input,
      )
    }
    const lookups = [
      { view: 'wallet', address: other },
      { view: 'asset', ids: [other] },
      { view: 'assets-by-owner', owner: other },
      { view: 'assets-by-authority', authority: other },
      { view: 'token-accounts', owner: other },
      { view: 'compressed-account', hashes: [other] },
      { view: 'compressed-owner', owner: other },
      { view: 'compressed-tx', signature },
      { view: 'compressed-proof', hashes: [other] },
      { view: 'priority-fee', accounts: [other] },
      { view: 'token-metadata', mints: [other] },
    ]
    const address = { address: wallet }
    return {
      'app:info': [undefined],
      'watchlist:list': [undefined],
      'watchlist:summaries': [undefined],
      'watchlist:totals': [undefined],
      'watchlist:value-series': [undefined],
      'watchlist:amount-series': [{}],
      'wallet:profile': [address],
      'wallet:mark-viewed': [address],
      'wallet:whole': [address],
      'wallet:value-series': [address],
      'wallet:amount-series': [address],
      'history:page': [address],
      'history:count': [address],
      'history:mints': [address],
      'transfers:page': [address],
      'transfers:count': [address],
      'balances:current': [address],
      'balances:at-plan': [
        { address: wallet, date },
        { address: wallet, date, includeNfts: true },
      ],
      'nfts:list': [address],
      'compressed:page': [address],
      'activity:latest': [{}],
      'export:preview': exportsOf(''),
      'export:run': exportsOf(walker),
      'export:cancel': [{ exportId: `${walker}-export-0` }],
      'export:choose-path': exportsOf(''),
      'sync:status': [undefined],
      'sync:estimate': [address, { address: other }],
      'sync:older-plan': [
        address,
        { address: wallet, target: { kind: 'all' } },
        { address: wallet, target: { kind: 'to', sinceSec: 1_600_000_000 } },
      ],
      'sync:history-depth': [address],
      'credits:overview': [undefined],
      'credits:budget': [undefined],
      'watch:footprint': [undefined],
      'watch:cadence': [undefined],
      'settings:get': [undefined],
      'demo:wallets': [undefined],
      'lookup:recognise': [{ text: wallet }, { text: other }, { text: signature }],
      'lookup:plan': lookups,
      'lookup:cached': lookups,
      'lookup:recent': [undefined],
      'lookup:search': [{ text: 'a' }, { text: wallet.slice(0, 6) }],
      'webhooks:plan': WebhookAction.options.map((action) => ({ action })),
      'webhooks:cached': [undefined],
      'webhooks:mode': [undefined],
      'notify:list': [undefined],
      'alerts:rules': [undefined],
      'alerts:history': [{ limit: 50 }],
      'feed:page': [
        {},
        { filters: { wallets: [wallet], kinds: ['SWAP'], direction: 'in', minUsd: 1 } },
        { filters: { tags: ['desk'], token: 'SOL' }, limit: 200 },
      ],
      'feed:mark-viewed': [{ upTo: { slot: 0, id: 0 } }],
      'health:status': [undefined],
      'health:kept-aside': [{}, { includeWritten: true }],
      'alerts:mark-read': [{ upToId: 1 }],
      'alerts:try': [
        { rule: { trigger: 'activity' }, days: 30 },
        { rule: { trigger: 'new-counterparty', scope: { wallets: [wallet] } }, days: 365 },
        { rule: { trigger: 'lookalike', scope: { wallets: [wallet] } }, days: 365 },
        { rule: { trigger: 'value-change', options: { pct: 10, windowSec: 86_400 } }, days: 30 },
      ],
      'alerts:check-rule': [
        { trigger: 'cluster', options: { token: 'SOL', count: 2, windowSec: 3600 } },
        { trigger: 'type', options: { types: ['SWAP'] }, scope: { wallets: [wallet] } },
      ],
    }
  }

  /** Runs the whole walk as `name`; the answers by channel. */
  async function walk(name: string): Promise<Map<string, Envelope<unknown>[]>> {
    const answers = new Map<string, Envelope<unknown>[]>()
    for (const [channel, inputs] of Object.entries(viewerInputs(name))) {
      for (const input of inputs) {
        const answer = await sockets[name]!.call(channel, input)
        // Every input is well formed: the walk tries what each option does, not the schema.
        if (!answer.ok) expect(answer.error.name, channel).not.toBe('InvalidInputError')
        // Each export is downloaded, as the page does: what waits for download is bounded.
        const downloadId =
          channel === 'export:run' && answer.ok ? (answer.result as ExportResult).downloadId : null
        if (downloadId)
          expect(
            (
              await rawRequest(fx.port, exportDownloadPath(downloadId), {
                headers: { cookie: cookies[name] as string },
              })
            ).status,
          ).toBe(200)
        answers.set(channel, [...(answers.get(channel) ?? []), answer])
      }
    }
    return answers
  }

  const ledger = async (): Promise<number> => {
    const overview = await core.dispatch('credits:overview', undefined)
    if (!overview.ok) throw new Error(overview.error.message)
    return (overview.result as { totalCredits: number }).totalCredits
  }

  it('the walk covers every channel a viewer may use', () => {
    const viewerChannels = CHANNELS.filter((c: Channel) => contract[c].role === 'viewer')
    expect(Object.keys(viewerInputs()).sort()).toEqual([...viewerChannels].sort())
  })

  it('a viewer walks every channel with every option: the simulator’s counter stays put', async () => {
    const before = await simulatorCredits(synced.sim.url)
    const ledgerBefore = await ledger()
    const answers = await walk('vera')
    // The paid option is refused where the credits would be spent, and says why.
    const paidExports = (answers.get('export:run') ?? []).slice(4)
    expect(paidExports).toHaveLength(2)
    for (const answer of paidExports)
      expect(answer).toMatchObject({
        ok: false,
        error: { name: 'PermissionError', message: expect.stringMatching(/cannot spend credits/) },
      })
    // The free ones still work for a viewer.
    expect(answers.get('export:run')?.slice(0, 4)).toMatchObject([
      { ok: true },
      { ok: true },
      { ok: true },
      { ok: true },
    ])
    expect(await simulatorCredits(synced.sim.url)).toBe(before)
    expect(await ledger()).toBe(ledgerBefore)
  }, 60_000)

  it('the same walk by an editor spends: the paid options reach the service', async () => {
    const before = await simulatorCredits(synced.sim.url)
    const answers = await walk('eddie')
    expect(answers.get('export:run')?.slice(4)).toMatchObject([{ ok: true }, { ok: true }])
    const spent = (await simulatorCredits(synced.sim.url)) - before
    expect(spent).toBeGreaterThan(0)
    // Every credit the walk spent is in the ledger.
    expect(await ledger()).toBe(await simulatorCredits(synced.sim.url))
  }, 120_000)
})
