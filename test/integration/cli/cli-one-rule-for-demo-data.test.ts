import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { demoDatabasePath } from '../../../src-main/app/data-dir'
import { DEMO_DATA_NOTICE } from '../../../src-main/cli/cli-core'
import { serveFolder } from '../../../src-main/shell/holder/holder-server'
import { firstOwnWalletText } from '@shared/domain/first-own-wallet'
import type { AlertRuleView } from '@shared/ipc/alert-schemas'
import type { FeedRow } from '@shared/ipc/feed-schemas'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { FastForwardClock } from '../../helpers/virtual-clock'
import { testAddress } from '../../helpers/wallets'

// Issue 51's demo findings, as a person meets them: `--data-source demo` on a new folder
// refused; on a folder showing the demo, a rule "added" was nowhere to be listed or tried,
// and tagging a demo wallet said it was not watched. One rule now, the app's: what one does
// to what is shown acts where it is shown; the first wallet of one's own switches to one's
// own data and says what the demo keeps.

describe('CLI: one rule for demo data', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('`--data-source demo feed --limit 3` on a new folder makes the demo and prints three demo rows', async () => {
    const fresh = join(temp.dir, 'fresh')
    const run = await runCli(['--data-dir', fresh, '--data-source', 'demo', 'feed', '--limit', '3'])
    expect(run.code, run.stderr).toBe(0)
    const rows = run.stdout.trimEnd().split('\n')
    expect(rows).toHaveLength(3)
    expect(rows.every((row) => row.includes('Demo: '))).toBe(true)
    expect(run.stderr).toContain('Made the demo data: 4 sample wallets synced')
    expect(run.stderr).toContain(DEMO_DATA_NOTICE)
    expect(existsSync(demoDatabasePath(fresh))).toBe(true)

    // Shown again at once: nothing is made twice.
    const again = await runCli(['--data-dir', fresh, '--data-source', 'demo', 'feed', '--json'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).not.toContain('Made the demo data')
    expect((JSON.parse(again.stdout) as FeedRow[]).length).toBeGreaterThan(3)
  }, 120_000)

  it('rules and tags on a folder showing the demo act on the demo; the first own wallet says what the demo keeps', async () => {
    const dir = join(temp.dir, 'demo-folder')
    expect((await runCli(['--data-dir', dir, '--data-source', 'demo', 'watch', 'list'])).code).toBe(
      0,
    )
    const at = (...args: string[]) => runCli(['--data-dir', dir, ...args])

    const added = await at('alerts', 'add', '--when', 'failed')
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toMatch(/^Added rule 1 /)
    const rules = await at('alerts', 'list', '--json')
    expect((JSON.parse(rules.stdout) as AlertRuleView[]).map((r) => r.id)).toEqual([1])
    const tried = await at('alerts', 'try', '1', '--days', '30')
    expect(tried.code, tried.stderr).toBe(0)
    expect(tried.stdout).toMatch(/would have fired [1-9]/)

    const wallets = JSON.parse((await at('watch', 'list', '--json')).stdout) as WatchedWallet[]
    const demoWallet = wallets.find((w) => w.label === 'Demo: failed-transactions')
    if (!demoWallet) throw new Error('no demo wallet listed')
    const tagged = await at('watch', 'tag', demoWallet.address, 'demo')
    expect(tagged.code, tagged.stderr).toBe(0)
    expect(tagged.stdout).toBe(`Tagged ${demoWallet.address}: demo\n`)
    const feed = await at('feed', '--tag', 'demo', '--json')
    expect(
      (JSON.parse(feed.stdout) as FeedRow[]).every((r) => r.wallet === demoWallet.address),
    ).toBe(true)

    const own = testAddress(51)
    const first = await at('watch', 'add', own)
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toBe(`Watching ${own}\n`)
    expect(first.stderr).toContain(
      firstOwnWalletText({ rules: 1, taggedWallets: 1 }, '`--data-source demo`'),
    )
    // Shown from then on: one's own data, with none of the demo's rules; the demo keeps them.
    expect((await at('watch', 'list')).stdout).toBe(`${own}\n`)
    expect((await at('alerts', 'list')).stdout).toContain('No alert rules.')
    const demoRules = await at('--data-source', 'demo', 'alerts', 'list', '--json')
    expect((JSON.parse(demoRules.stdout) as AlertRuleView[]).map((r) => r.id)).toEqual([1])
  }, 120_000)

  it('through the app holding a folder that shows the demo, a rule goes where the app puts it: the demo', async () => {
    const dir = join(temp.dir, 'app-folder')
    const app = await createCore({
      dataDir: dir,
      shell: 'web',
      version: 'test',
      clock: new FastForwardClock(),
      isWatching: true,
      demo: { live: false },
      serveOthers: (opening) => serveFolder({ dataDir: dir, name: 'the Heliograph app' }, opening),
    })
    try {
      const added = await runCli(['--data-dir', dir, 'alerts', 'add', '--when', 'failed'])
      expect(added.code, added.stderr).toBe(0)
      expect(added.stderr).toContain(DEMO_DATA_NOTICE)
      const inApp = await app.dispatch('alerts:rules', undefined)
      expect(inApp.ok && (inApp.result as AlertRuleView[]).map((r) => r.trigger)).toEqual([
        'failed',
      ])
    } finally {
      await app.close()
    }
  }, 120_000)
})
