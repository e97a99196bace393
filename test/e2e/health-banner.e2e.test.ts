import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../src-main/app/core'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { launchChromium, screenshot } from '../helpers/chromium'
import { makeTempDir } from '../helpers/temp-dir'
import { BUILT_RENDERER_DIR } from '../helpers/web-shell-fixture'

// Issue 30, never silent: when the service starts rejecting the key, a banner on every
// page says what stopped, since when and what to do; the wallets no longer read "Up to
// date"; "Sync all now" says why instead of queueing; and once a call succeeds again the
// banner goes away by itself.

describe('e2e: the health banner', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let core: Core
  let shell: RunningWebShell
  let browser: Browser
  let page: Page
  const banner = () => page.getByRole('alert', { name: 'Syncing health' })
  const call = async (channel: string, input: unknown): Promise<unknown> => {
    const answer = await core.dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
    return answer.result
  }
  const faults = (method: 'POST' | 'DELETE', spec?: object) =>
    fetch(`${sim.url}/__sim/faults`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(spec ? { body: JSON.stringify(spec) } : {}),
    })

  beforeAll(async () => {
    sim = await startSimulator({ seed: 33, clock: { mode: 'manual' } })
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
    })
    const address = sim.chain.walletByProfile('casual').address
    await call('watchlist:add', { address, label: 'Casual' })
    await call('sync:run', { address })
    await faults('POST', { kind: 'error', status: 401, message: 'Invalid API key' })
    await call('sync:run', { address })
    shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await shell?.close()
    await core?.close()
    await sim?.close()
    temp.remove()
  })

  it('says what stopped, since when and what to do, on every page', async () => {
    await page.goto(shell.url)
    await expect
      .poll(() => banner().textContent())
      .toMatch(
        /Syncing stopped: the service rejected the API key \(HTTP 401\) \(since \d\d:\d\d UTC\)\.\s*Replace it in Settings/,
      )
    await page.goto(`${shell.url}#/activity`)
    await expect.poll(() => banner().count()).toBe(1)
    // "No errors" would read as all is well: the Activity page says the stop instead.
    await expect
      .poll(() => page.getByText('No errors. Every stream synced cleanly').count())
      .toBe(0)
  })

  it('"Sync all now" says why instead of queueing', async () => {
    await page.getByRole('button', { name: 'Sync all now' }).click()
    await expect
      .poll(() => page.getByRole('log', { name: 'Notifications' }).textContent())
      .toMatch(
        /Could not start the sync: Not synced: syncing stopped: the service rejected the API key/,
      )
    await screenshot(page, 'health-banner')
  })

  it('goes away by itself once the service accepts the key again', async () => {
    await faults('DELETE')
    const address = sim.chain.walletByProfile('casual').address
    await call('sync:run', { address })
    await expect.poll(() => banner().count(), { timeout: 10_000 }).toBe(0)
  })

  it('Settings has the fit-to-budget switch, on by default, saved as it is switched', async () => {
    await page.goto(`${shell.url}#/settings`)
    const fit = page.getByRole('region', { name: 'Fit to budget' }).getByRole('checkbox')
    await expect.poll(() => fit.isChecked()).toBe(true)
    await page.getByRole('region', { name: 'Fit to budget' }).scrollIntoViewIfNeeded()
    await screenshot(page, 'health-settings-fit-to-budget')
    await fit.uncheck()
    await expect
      .poll(
        async () =>
          ((await call('settings:get', undefined)) as { fitToBudget: boolean }).fitToBudget,
      )
      .toBe(false)
  })

  // Issue 46: items of the service's answers the app cannot read are kept aside, and the
  // banner says what and where while syncing goes on (no setting to change, so no link).
  it('says what was kept aside of the service’s answers, and that syncing goes on', async () => {
    const wallet = sim.chain.walletByProfile('casual')
    sim.addActivity(wallet, 6)
    for (const [target, field] of [
      ['wallet.history', 'data.3.fee'],
      ['wallet.transfers', 'data.2.amount'],
      ['wallet.balances', 'balances.1.balance'],
    ])
      await faults('POST', { target, kind: 'drift', drift: 'wrongType', field, count: 1 })
    await call('sync:run', { address: wallet.address })
    await page.goto(shell.url)
    await expect
      .poll(() => banner().textContent())
      .toMatch(
        /^1 holding, 1 history entry and 1 transfer of Casual could not be read; kept aside \(heliograph doctor shows them\)\.\s*The rest of each page was written and syncing goes on/,
      )
    await expect.poll(() => banner().getAttribute('data-health-kind')).toBe('service-shape')
    expect(await banner().getByRole('link', { name: 'Open Settings' }).count()).toBe(0)
    const report = (await call('health:kept-aside', {})) as { keptAside: { stream: string }[] }
    expect(report.keptAside.map((k) => k.stream).sort()).toEqual([
      'balances',
      'history',
      'transfers',
    ])
    await screenshot(page, 'health-banner-kept-aside')
  })
})
