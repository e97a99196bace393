import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrationNotice } from '../../src-main/app/migration-notice'
import { migrations } from '../../src-main/db/migrations'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { MIGRATION_WINDOW_SIZE, migrationPage } from '../../src-main/shell/electron/migration-page'
import { launchChromium, screenshot } from '../helpers/chromium'
import { makeTempDir } from '../helpers/temp-dir'

// Given a mirror an earlier version wrote, when the desktop app updates it at start-up,
// then the small window it shows meanwhile reads, for each step, the notice the update
// gave, whole and inside the window (less its title bar); and text that looks
// like markup is shown as text, never run.

/** The window's content: the window less a title bar. */
const WINDOW = { width: MIGRATION_WINDOW_SIZE.width, height: MIGRATION_WINDOW_SIZE.height - 30 }

describe('the window shown while the mirror is updated', () => {
  const temp = makeTempDir()
  let browser: Browser
  let page: Page
  const notices: string[] = []

  beforeAll(async () => {
    const path = join(temp.dir, 'heliograph.sqlite')
    const older = Object.fromEntries(Object.entries(migrations).slice(0, -3))
    await (await openDatabase(path, { migrations: older })).close()
    const updated = await openDatabase(path, {
      onMigration: (progress) => {
        const notice = migrationNotice(progress)
        if (notice !== null) notices.push(notice)
      },
    })
    await updated.close()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: WINDOW })
  })
  afterAll(async () => {
    await browser?.close()
    temp.remove()
  })

  it('shows each step of the update, whole, inside the window', async () => {
    expect(notices).toHaveLength(3)
    for (const [i, notice] of notices.entries()) {
      await page.goto(migrationPage(notice))
      expect(await page.locator('p').innerText()).toBe(notice)
      expect(await page.title()).toBe('Heliograph')
      const fit = await page.evaluate(() => {
        const doc = document.scrollingElement as HTMLElement
        const text = document.querySelector('p')!.getBoundingClientRect()
        return {
          sideways: doc.scrollWidth - doc.clientWidth,
          downwards: doc.scrollHeight - doc.clientHeight,
          bottom: text.bottom,
        }
      })
      expect(fit.sideways, notice).toBe(0)
      expect(fit.downwards, notice).toBe(0)
      expect(fit.bottom).toBeLessThanOrEqual(WINDOW.height)
      await screenshot(page, `mirror-update-step-${i + 1}`)
    }
  })

  it('shows markup as text and runs no script', async () => {
    const text = `<script>document.title = 'ran'</script><b>bold</b> & "quoted"`
    await page.goto(migrationPage(text))
    expect(await page.locator('p').innerText()).toBe(text)
    expect(await page.title()).toBe('Heliograph')
    expect(await page.locator('script, b').count()).toBe(0)
  })
})
