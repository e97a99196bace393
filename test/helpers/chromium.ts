import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

/** Debian's Chromium, installed by `.ci/run` (apt-get install chromium). */
export const CHROMIUM_PATH = process.env.HELIOGRAPH_CHROMIUM ?? '/usr/bin/chromium'

/** Where e2e screenshots go (git-ignored), to be looked at after a run. */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-results')

/** Launches headless Chromium with the flags this closed network needs. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

/** Saves a full-page screenshot under test-results/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = resolve(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
