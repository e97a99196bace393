import { getOperation } from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import type { CreditsOverview, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { testMirror, type TestMirror } from '../../helpers/stored-mirror'
import { ENGINES } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 13: after a sync that cost 1,660 credits, `status --json` said creditsSpent 0 on
// every stream (and Activity 0 on every wallet). Credits are attributed to the wallet and
// stream whose page they paid for; what no one wallet caused is reported as shared, and
// per-wallet plus shared equals what the service counted.

/** One page of each stream costs one call of its operation. */
const PAGE_CREDITS: Record<string, number> = {
  history: creditsPerCall(getOperation('wallet.history').priceKey),
  transfers: creditsPerCall(getOperation('wallet.transfers').priceKey),
  balances: creditsPerCall(getOperation('wallet.balances').priceKey),
  'compressed-owner': creditsPerCall(
    getOperation('compression.getCompressionSignaturesForOwner').priceKey,
  ),
  'compressed-token-owner': creditsPerCall(
    getOperation('compression.getCompressionSignaturesForTokenOwner').priceKey,
  ),
}

describe.each(ENGINES)(
  'CLI: per-wallet and per-stream credits are what the sync spent (on %s)',
  (engine) => {
    const temp = makeTempDir()
    let sim: RunningSimulator
    let mirror: TestMirror | undefined
    let base: string[]

    beforeAll(async () => {
      sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
      mirror = await testMirror(engine, temp.dir)
      base = [...mirror.cliArgs, '--service', sim.url, '--api-key', 'demo']
      for (const profile of ['casual', 'compressed-holder'] as const) {
        const address = sim.chain.walletByProfile(profile).address
        expect((await cli([...base, 'watch', 'add', address, '--label', profile])).code).toBe(0)
      }
      const run = await cli([...base, 'sync', '--once', '--quiet'])
      expect(run.code, run.stderr).toBe(0)
    })
    afterAll(async () => {
      await sim.close()
      await mirror?.drop()
      temp.remove()
    })

    it('status --json gives every stream the credits of the pages it fetched (not 0)', async () => {
      const status = JSON.parse(
        (await cli([...base, 'status', '--json'])).stdout,
      ) as WalletSyncStatus[]
      expect(status).toHaveLength(2)
      for (const wallet of status) {
        for (const stream of wallet.streams) {
          const name = `${wallet.label} ${stream.stream}`
          if (stream.stream === 'balances') {
            // Its pages are wallet pages (100 credits) and DAS holdings pages (10 credits).
            const das = creditsPerCall(getOperation('das.getAssetsByOwner').priceKey)
            expect(stream.creditsSpent, name).toBeGreaterThan(0)
            expect(stream.creditsSpent, name).toBeLessThanOrEqual(
              stream.pagesFetched * PAGE_CREDITS.balances!,
            )
            expect(stream.creditsSpent, name).toBeGreaterThanOrEqual(stream.pagesFetched * das)
          } else if (stream.stream === 'compressed-owner') {
            // Its signature pages, then (with compressed activity) the compressed state's calls.
            expect(stream.creditsSpent, name).toBeGreaterThanOrEqual(
              stream.pagesFetched * PAGE_CREDITS['compressed-owner']!,
            )
          } else {
            expect(stream.creditsSpent, name).toBe(
              stream.pagesFetched * (PAGE_CREDITS[stream.stream] ?? NaN),
            )
          }
        }
        const streamCredits = wallet.streams.reduce((n, s) => n + s.creditsSpent, 0)
        expect(streamCredits).toBeGreaterThan(0)
        // The wallet's own total also holds its calls of no one stream (naming its mints).
        expect(wallet.creditsSpent).toBeGreaterThanOrEqual(streamCredits)
      }
    })

    it('per-wallet credits plus shared equal the total, which equals the service counter', async () => {
      const status = JSON.parse(
        (await cli([...base, 'status', '--json'])).stdout,
      ) as WalletSyncStatus[]
      const credits = JSON.parse(
        (await cli([...base, 'credits', '--json'])).stdout,
      ) as CreditsOverview
      const charged = await simulatorCredits(sim.url)
      expect(credits.totalCredits).toBe(charged)
      const perWallet = credits.byWallet.reduce((n, w) => n + w.credits, 0)
      expect(perWallet + credits.sharedCredits).toBe(charged)
      expect(perWallet).toBeGreaterThan(0)
      for (const wallet of status) {
        expect(credits.byWallet.find((w) => w.address === wallet.address)?.credits).toBe(
          wallet.creditsSpent,
        )
      }
      expect(status.reduce((n, w) => n + w.creditsSpent, 0)).toBe(perWallet)
    })

    it('the text lists each wallet by label with its credits, and the shared credits', async () => {
      const credits = JSON.parse(
        (await cli([...base, 'credits', '--json'])).stdout,
      ) as CreditsOverview
      const text = (await cli([...base, 'credits'])).stdout
      const lines = text.split('\n')
      const byWallet = lines.indexOf('By wallet:')
      expect(byWallet, text).toBeGreaterThan(0)
      for (const wallet of credits.byWallet) {
        const line = lines.find((l) => l.includes(`(${wallet.address})`))
        expect(line, `${wallet.address} in\n${text}`).toBeDefined()
        expect(line).toMatch(/^ {2}(casual|compressed-holder) \(/)
        expect(line?.trim().endsWith(`${wallet.credits.toLocaleString('en-US')} credits`)).toBe(
          true,
        )
      }
      const shared = lines.find((l) => l.trim().startsWith('shared by the watchlist'))
      expect(
        shared
          ?.trim()
          .endsWith(
            `${credits.sharedCredits.toLocaleString('en-US')} credit${credits.sharedCredits === 1 ? '' : 's'}`,
          ),
      ).toBe(true)
    })
  },
)
