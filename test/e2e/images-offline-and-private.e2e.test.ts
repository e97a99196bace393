import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'

// Issue 14: the demo collector's Overview showed no images (ten failed loads a page, the
// art named an invented host), and a real NFT's image was loaded from its host by the
// page. Now every image comes from the page's own origin, drawn from the data folder.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

describe('e2e: NFT images are shown offline and loaded from nowhere but the app', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  const requested: string[] = []

  beforeAll(async () => {
    fx = await startTestWebShell()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    page.on('request', (r) => requested.push(r.url()))
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  it('the collector’s NFTs show their images, every request going to the app itself', async () => {
    await page.goto(fx.shell.url)
    const origin = new URL(fx.shell.url).origin
    const collector = async (): Promise<string | null> => {
      const wallets = await fx.core.dispatch('watchlist:list', undefined)
      const list = wallets.ok ? (wallets.result as { address: string; label: string | null }[]) : []
      return list.find((w) => w.label === 'Demo: nft-collector')?.address ?? null
    }
    await fx.core.dispatch('demo:add-wallets', undefined)
    await expect.poll(collector, { timeout: 30_000 }).not.toBeNull()
    const address = (await collector()) as string
    await fx.core.dispatch('sync:start', { address })
    const nfts = async (): Promise<number> => {
      const listed = await fx.core.dispatch('nfts:list', { address })
      return listed.ok ? (listed.result as unknown[]).length : 0
    }
    await expect.poll(nfts, { timeout: 45_000 }).toBe(173)
    await page.goto(`${origin}/#/wallet/${address}/overview`)
    const images = page.locator('img[src^="/images/"]')
    await expect.poll(() => images.count(), { timeout: 45_000 }).toBeGreaterThan(5)
    // Loaded, not broken: the first few have pixels.
    await expect
      .poll(
        () =>
          images.evaluateAll(
            (els) =>
              (els as HTMLImageElement[])
                .slice(0, 5)
                .filter((e) => e.complete && e.naturalWidth > 0).length,
          ),
        { timeout: 20_000 },
      )
      .toBe(5)
    await screenshot(page, 'images-collector-overview')
    const elsewhere = requested.filter(
      (u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('ws://127.0.0.1'),
    )
    expect(elsewhere).toEqual([])
  }, 90_000)
})
