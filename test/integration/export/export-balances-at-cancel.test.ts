import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportPreview, ExportProgress } from '@shared/ipc/export-schemas'
import type { CreditsOverview } from '@shared/ipc/sync-schemas'
import { createCore, type Core } from '../../../src-main/app/core'
import { DOWNLOADS_FOLDER } from '../../../src-main/export/export-downloads'
import { simulatorCredits } from '../../helpers/sim-truth'
import { ENGINES } from '../../helpers/sync-fixture'
import { GOLDEN_SEED, syncedMirror, type SyncedMirror } from './export-fixture'

// Given the collector's synced mirror, when a balances-at export asks the service about
// every mint (NFTs included: 100 credits each) and is cancelled part way, then it stops
// asking, writes nothing, and the ledger holds exactly what the simulator charged.

describe.each(ENGINES)(
  'export: balances at a date from the service, cancelled part way (on %s)',
  (engine) => {
    let mirror: SyncedMirror
    let core: Core
    let collector: string
    let date: string
    const progress: ExportProgress[] = []

    beforeAll(async () => {
      mirror = await syncedMirror(['nft-collector'], GOLDEN_SEED, engine)
      collector = mirror.addresses.get('nft-collector') as string
      date = new Date((mirror.sim.chain.clock.nowSec() - 3 * 86_400) * 1000)
        .toISOString()
        .slice(0, 10)
      core = await createCore({
        dataDir: mirror.dir,
        ...(mirror.databaseUrl ? { databaseUrl: mirror.databaseUrl } : {}),
        shell: 'web',
        version: 'test',
        dataSource: 'service',
        serviceUrl: mirror.sim.url,
        apiKey: 'demo',
      })
      core.events.subscribe((event, payload) => {
        if (event === 'export:progress') progress.push(payload as ExportProgress)
      })
    }, 120_000)
    afterAll(async () => {
      await core?.close()
      await mirror?.stop()
    })

    const filters = () => ({
      wallets: [collector],
      balancesAt: { date, source: 'service', includeNfts: true },
    })

    it('stops asking, leaves no file, and the ledger equals the simulator counter', async () => {
      const preview = await core.dispatch('export:preview', {
        kind: 'balances-at',
        filters: filters(),
      })
      if (!preview.ok) throw new Error(preview.error.message)
      const planned = (preview.result as ExportPreview).serviceCredits
      expect(planned).toBeGreaterThan(17_000)

      const before = await simulatorCredits(mirror.sim.url)
      const running = core.dispatch('export:run', {
        exportId: 'balances-at-cancel',
        kind: 'balances-at',
        filters: filters(),
      })
      // A few calls in, the person cancels.
      await expect
        .poll(() => simulatorCredits(mirror.sim.url), { timeout: 30_000, interval: 50 })
        .toBeGreaterThanOrEqual(before + 500)
      expect(await core.dispatch('export:cancel', { exportId: 'balances-at-cancel' })).toEqual({
        ok: true,
        result: { cancelled: true },
      })
      const envelope = await running
      expect(envelope).toMatchObject({ ok: false, error: { name: 'ExportCancelledError' } })
      expect(progress.filter((p) => p.exportId === 'balances-at-cancel').at(-1)?.state).toBe(
        'cancelled',
      )
      expect(readdirSync(join(mirror.dir, DOWNLOADS_FOLDER))).toEqual([])

      const spent = (await simulatorCredits(mirror.sim.url)) - before
      expect(spent).toBeLessThan(planned)
      // Nothing more is asked after the cancel.
      await new Promise((done) => setTimeout(done, 500))
      expect((await simulatorCredits(mirror.sim.url)) - before).toBe(spent)
      const overview = await core.dispatch('credits:overview', undefined)
      if (!overview.ok) throw new Error(overview.error.message)
      expect((overview.result as CreditsOverview).totalCredits).toBe(
        await simulatorCredits(mirror.sim.url),
      )
    }, 60_000)
  },
)
